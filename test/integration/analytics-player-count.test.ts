import { randomUUID } from 'node:crypto';
import { analytics, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { foldPlayerCounts } from '../../db/queries/analyticsPlayerCount';

/**
 * `total_players` from the kept count (issue 45, docs/analytics.md "Player count"): after single creates, an upsert,
 * a batch, concurrent creates, a rolled-back write, an erasure and folds, `/kpis` answers exactly what a `count(*)` of
 * the operator's live players says; another operator's players never move it.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const counted = async (client: DataClient): Promise<number> => {
  const row = await app.deps
    .db('entities')
    .where({ operator_id: client.operator.operatorId, entity_type: 'player' })
    .whereNull('deleted_at')
    .count<{ count: string }[]>('* as count');
  return Number(row[0]!.count);
};
const kpiPlayers = async (client: DataClient): Promise<number> => {
  const response = await analytics(app, client.key, '/kpis');
  expect(response.status).toBe(200);
  return response.body.data.kpis.total_players;
};
const pendingChanges = async (client: DataClient): Promise<number> =>
  Number(
    (await app.deps.db('analytics_player_count_changes').where({ operator_id: client.operator.operatorId }).count<{ count: string }[]>('* as count'))[0]!.count,
  );

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
});
afterAll(() => app.close());

it('401 without credentials, and a new operator has 0 players', async () => {
  const missing = await analytics(app, undefined, '/kpis');
  expect(missing.status).toBe(401);
  expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
  expect(await kpiPlayers(alice)).toBe(0);
});

it('single creates, an upsert of the same player and a non-player entity', async () => {
  await seedPlayers(alice, [{ externalId: 'a1' }, { externalId: 'a2' }, { externalId: 'a3' }]);
  const again = await alice.call('/entities', { body: { entityType: 'player', externalId: 'a1', data: { country: 'SE' } } });
  expect(again.status).toBe(200);
  await app.deps
    .db('entities')
    .insert({ id: `ent_${randomUUID()}`, operator_id: alice.operator.operatorId, entity_type: 'device', external_id: 'd1', data: {} });
  expect(await counted(alice)).toBe(3);
  expect(await kpiPlayers(alice)).toBe(3);
});

it('a batch, then twenty creates at once: every one counted once', async () => {
  const body = Array.from({ length: 30 }, (_, i) => ({ entityType: 'player', externalId: `b${i}`, data: {} }));
  body.push({ entityType: 'player', externalId: 'a2', data: {} });
  const submitted = await alice.call('/batch/entities', { body });
  expect(submitted.status).toBe(202);
  expect((await waitForJob(alice, submitted.body.data.jobId)).status).toBe('completed');
  await Promise.all(Array.from({ length: 20 }, (_, i) => seedPlayers(alice, [{ externalId: `c${i}` }])));
  expect(await counted(alice)).toBe(53);
  expect(await kpiPlayers(alice)).toBe(53);
});

it('a write rolled back changes nothing; a fold moves the changes into the count and keeps it exact', async () => {
  await app.deps.db
    .transaction(async (trx) => {
      await trx('entities').insert({ id: `ent_${randomUUID()}`, operator_id: alice.operator.operatorId, entity_type: 'player', external_id: 'gone', data: {} });
      throw new Error('crash');
    })
    .catch(() => undefined);
  expect(await kpiPlayers(alice)).toBe(53);
  await foldPlayerCounts(app.deps.db);
  expect(await pendingChanges(alice)).toBe(0);
  expect(await app.deps.db('analytics_player_counts').where({ operator_id: alice.operator.operatorId }).first('players')).toEqual({ players: '53' });
  expect(await kpiPlayers(alice)).toBe(53);
});

it('an erasure takes the player out at once; writing to the erased player again is refused and changes nothing', async () => {
  expect((await alice.call('/entities/a3', { method: 'DELETE' })).status).toBe(200);
  expect(await kpiPlayers(alice)).toBe(52);
  const revived = await alice.call('/entities', { body: { entityType: 'player', externalId: 'a3', data: {} } });
  expect(revived.status).toBe(409);
  expect(await kpiPlayers(alice)).toBe(52);
  await seedPlayers(alice, [{ externalId: 'd2' }]);
  expect(await counted(alice)).toBe(53);
  expect(await kpiPlayers(alice)).toBe(53);
  await foldPlayerCounts(app.deps.db);
  expect(await kpiPlayers(alice)).toBe(53);
});

it('operator B counts its own players only', async () => {
  expect(await kpiPlayers(bob)).toBe(0);
  await seedPlayers(bob, [{ externalId: 'a1' }, { externalId: 'z' }]);
  expect(await kpiPlayers(bob)).toBe(2);
  expect(await counted(bob)).toBe(2);
  expect(await kpiPlayers(alice)).toBe(53);
});
