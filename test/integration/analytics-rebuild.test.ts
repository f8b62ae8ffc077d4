import { analytics, earlierTransactionsEnded, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';
import { lastDays } from '../../core/analyticsParams';
import { rawKpis } from '../../db/queries/analyticsRaw';
import { lastRollupTime, runRollupPass } from '../../db/queries/analyticsRollup';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { viewKpis } from '../../db/queries/analyticsViews';
import { up as rebuild } from '../../db/migrations/20261216090000_rebuild_analytics_rollups';

/**
 * The migration that rebuilds the rollups counted twice by the text-ordered cursor (docs/analytics.md "Rollups"): on a
 * database of its own, so emptying every operator's rollups disturbs no suite beside it.
 */
let database: FaultyDatabase;
let app: TestApp;
let dora: DataClient;

beforeAll(async () => {
  database = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: database.url });
  dora = await dataClient(app);
  await seedPlayers(dora, [{ externalId: 'p1' }, { externalId: 'p2' }]);
  for (const [externalId, amount] of [
    ['p1', 100],
    ['p2', 250],
  ] as const) {
    const sent = await dora.call(`/entities/${externalId}/events`, {
      body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR', status: 'completed', provider: 'stripe' } },
    });
    expect(sent.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await app.close();
  await database.drop();
});

it('empties figures counted twice, sets the cursor back to the start once (the guard stays on), and the next pass counts every event once', async () => {
  const scope: AnalyticsScope = { operatorId: dora.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' };
  const week = lastDays(7, new Date());
  await earlierTransactionsEnded(database.db);
  await runRollupPass(database.db);
  expect((await viewKpis(database.db, scope, week, week)).total_deposits).toBe(350);
  await database
    .db('analytics_daily')
    .where({ operator_id: scope.operatorId })
    .update({ deposits: database.db.raw('deposits * 2') });
  expect((await viewKpis(database.db, scope, week, week)).total_deposits).toBe(700);

  await database.db.transaction((trx) => rebuild(trx));
  expect(await database.db('analytics_rollup_state').first('cursor_xid', 'cursor_id')).toEqual({ cursor_xid: '0', cursor_id: '' });
  expect(await lastRollupTime(database.db)).toBeNull();
  expect(await database.db('analytics_daily').count()).toEqual([{ count: '0' }]);
  const raw = (await analytics(app, dora.key, '/kpis?range=7d')).body.data;
  expect([raw.refreshed_at, raw.kpis.total_deposits]).toEqual([null, 350]);

  await earlierTransactionsEnded(database.db);
  await runRollupPass(database.db);
  expect(await viewKpis(database.db, scope, week, week)).toEqual(await rawKpis(database.db, scope, week, week));
  const rolled = (await analytics(app, dora.key, '/kpis?range=7d')).body.data;
  expect(rolled.refreshed_at).not.toBeNull();
  expect(rolled.kpis.total_deposits).toBe(350);
  await expect(database.db('analytics_rollup_state').where({ id: 1 }).update({ cursor_xid: 0, cursor_id: '' })).rejects.toThrow(
    /the analytics rollup cursor may not move back/,
  );
});
