import { createHash, randomUUID } from 'node:crypto';
import { stableStringify } from '../../core/stableJson';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider } from '../helpers/providerServer';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const sha256 = (value: unknown) => createHash('sha256').update(stableStringify(value)).digest('hex');
const LOCKED = {
  success: false,
  error: {
    code: 'FORBIDDEN',
    message: 'The exclusion rule (self-exclusion, cooling-off, excluded players) cannot be switched off',
    details: [{ field: 'rules.exclusion', message: 'must be true' }],
  },
};

/** Emails the depositing player on every deposit: the gate decides whether it goes. */
const depositEmail = (name: string) => ({
  name,
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'isDeposit', type: 'condition', params: { expression: "trigger.data.type = 'deposit'" } },
    {
      id: 'email',
      type: 'action.send_email',
      params: { to: '{{ trigger.entity.externalId }}@players.test', subject: 'Deposit bonus', text: 'Thanks for depositing {{ trigger.data.amount }}' },
    },
    { id: 'after', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'emailed-or-not' } },
  ],
  edges: [
    { from: 'deposit', to: 'isDeposit' },
    { from: 'isDeposit', to: 'email', when: true },
    { from: 'email', to: 'after' },
  ],
});

/**
 * The responsible-gambling gate end to end (docs/compliance.md). Gate runs are started by hand with a whole
 * deposit event (so they run on this file's worker, whose e-mail goes to a loopback SMTP server); the harm
 * indicators are computed from deposits sent through the data API and trigger their automation through the shared
 * worker's outbox dispatcher.
 */
describe('responsible-gambling gate', () => {
  const queue = `compliance-gate-${randomUUID()}`;
  let smtp: TestSmtpServer;
  let worker: WorkerProcess;
  let app: TestApp;
  let acme: AutomationsClient;
  let globex: AutomationsClient;
  const started = new Date(Date.now() - 1000).toISOString();

  const player = async (client: AutomationsClient, externalId: string, state: Record<string, unknown> = {}) => {
    expect((await client.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { country: 'MT' } } })).status).toBe(201);
    for (const [key, value] of Object.entries(state))
      expect((await client.call(`/entities/${externalId}/state/${key}`, { method: 'PUT', body: { value } })).status).toBe(200);
  };
  const depositRun = async (client: AutomationsClient, workflowId: string, externalId: string) => {
    const event = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      event: 'entity_event.transaction',
      operatorId: client.operator.operatorId,
      occurredAt: new Date().toISOString(),
      entity: { id: 'ent_x', externalId, entityType: 'player' },
      data: { type: 'deposit', amount: 5000, currency: 'EUR' },
    };
    const response = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body: event });
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const evidence = (client: AutomationsClient, query: string) => client.wf(`/compliance/evidence?${query}`);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, SMTP_URL: smtp.url });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '20000' });
    [acme, globex] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
  });

  describe('settings: protection and the locked exclusion rule', () => {
    it('needs credentials (401); a Member reads but cannot change (403)', async () => {
      expect(await http(`${app.url}/workflows-api/compliance/settings`)).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      });
      const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
      expect(await http(`${app.url}/workflows-api/compliance/settings`, { token: member.accessToken })).toMatchObject({
        status: 200,
        body: { success: true, data: { rules: { exclusion: true, consent: true, harmIndicators: true, depositLimit: false } } },
      });
      const put = await http(`${app.url}/workflows-api/compliance/settings`, { method: 'PUT', token: member.accessToken, body: { explicitConsent: true } });
      expect(put).toMatchObject({
        status: 403,
        body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
      });
      expect(
        await http(`${app.url}/workflows-api/compliance/evidence?from=${started}&to=${new Date().toISOString()}`, { token: member.accessToken }),
      ).toMatchObject({
        status: 403,
      });
    });

    it('refuses switching the exclusion rule off to every role (403, exact body) and stores nothing', async () => {
      const admin = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'admin');
      const body = { rules: { exclusion: false } };
      for (const token of [acme.key, acme.operator.accessToken, admin.accessToken]) {
        const response = await http(`${app.url}/workflows-api/compliance/settings`, { method: 'PUT', token, body });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(LOCKED);
      }
      expect(await app.deps.db('compliance_settings').where({ operator_id: acme.operator.operatorId })).toEqual([]);
    });

    it('names the field of an invalid setting (400) and stores a valid one with defaults filled in', async () => {
      const bad = await acme.wf('/compliance/settings', { method: 'PUT', body: { quietHours: [{ jurisdiction: 'GB', from: 25, to: 8 }] } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'quietHours.0.from' }] });
      const saved = await acme.wf('/compliance/settings', {
        method: 'PUT',
        body: { rules: { exclusion: true }, quietHours: [{ jurisdiction: 'XX', from: 0, to: 0 }] },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toEqual({
        rules: { exclusion: true, consent: true, harmIndicators: true, depositLimit: false },
        explicitConsent: false,
        quietHours: [{ jurisdiction: 'XX', from: 0, to: 0 }],
        depositLimitHours: 24,
        harm: { depositVelocity: { deposits: 5, amount: null, windowMinutes: 60 }, depositAfterReversedWithdrawal: { windowMinutes: 30 }, atRiskDays: 30 },
      });
      expect((await acme.wf('/compliance/settings')).body.data).toEqual(saved.body.data);
      const audited = await app.deps.db('audit_events').where({ operator_id: acme.operator.operatorId, action: 'settings.updated' });
      const ours = audited.filter((row) => row.changed_fields.includes('responsibleGambling'));
      expect(ours.map((row) => [row.actor_kind, row.target_type, row.changed_fields])).toEqual([['api_key', 'settings', ['responsibleGambling']]]);
    });
  });

  describe('marketing steps', () => {
    const excluded = { selfExcluded: true, coolingOff: false, exclusionSources: ['gamstop'], depositLimit: 0 };
    const cooling = { selfExcluded: false, coolingOff: true, exclusionSources: [], depositLimit: 0 };
    const fine = { selfExcluded: false, coolingOff: false, exclusionSources: [], depositLimit: 0 };

    it('an email on every deposit: one sent, two suppressed with their rules, three evidence rows, the export matching', async () => {
      await player(acme, 'p-excluded', { compliance: excluded, consent: { email: true } });
      await player(acme, 'p-cooling', { compliance: cooling, consent: { email: true } });
      await player(acme, 'p-ok', { compliance: fine, consent: { email: true, sms: false } });
      const workflow = await acme.create(depositEmail('Deposit bonus email'));

      const runs = [];
      for (const id of ['p-excluded', 'p-cooling', 'p-ok']) runs.push(await depositRun(acme, workflow.id, id));
      for (const run of runs) expect(run.status).toBe('completed');
      const [excludedRun, coolingRun, okRun] = runs;
      expect(excludedRun.nodes[2]).toMatchObject({
        id: 'email',
        status: 'completed',
        output: { suppressed: true, rule: 'self_excluded', playerId: 'p-excluded', stateHash: sha256({ compliance: excluded, consent: { email: true } }) },
      });
      expect(coolingRun.nodes[2]).toMatchObject({ id: 'email', status: 'completed', output: { suppressed: true, rule: 'cooling_off', playerId: 'p-cooling' } });
      // The run goes on by its edges after a suppressed step.
      expect(excludedRun.nodes[3]).toMatchObject({ id: 'after', status: 'completed' });
      expect(okRun.nodes[2]).toMatchObject({ id: 'email', status: 'completed', output: { delivery: 'smtp' } });

      await smtp.waitFor('p-ok@players.test');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received.map((mail) => mail.to)).toEqual([['p-ok@players.test']]);

      const stored = await app.deps.db('marketing_evidence').where({ operator_id: acme.operator.operatorId }).orderBy('seq');
      expect(stored.map((row) => [row.run_id, row.node_id, row.rule, row.player_id, row.automation_id, row.automation_version])).toEqual([
        [excludedRun.id, 'email', 'self_excluded', 'p-excluded', workflow.id, 1],
        [coolingRun.id, 'email', 'cooling_off', 'p-cooling', workflow.id, 1],
        [okRun.id, 'email', 'allowed', 'p-ok', workflow.id, 1],
      ]);
      expect(stored[2].state_hash).toBe(sha256({ compliance: fine, consent: { email: true, sms: false } }));

      const period = `from=${started}&to=${new Date(Date.now() + 1000).toISOString()}`;
      const json = await evidence(acme, period);
      expect(json.status).toBe(200);
      expect(json.headers.get('x-truncated')).toBe('false');
      expect(json.body).toMatchObject({ success: true, count: 3, truncated: false });
      expect(json.body.data).toEqual(
        stored.map((row) => ({
          recorded_at: row.recorded_at.toISOString(),
          workflow_id: row.automation_id,
          workflow_version: 1,
          run_id: row.run_id,
          node_id: 'email',
          action_type: 'action.send_email',
          purpose: 'marketing',
          rule: row.rule,
          player_id: row.player_id,
          state_hash: row.state_hash,
        })),
      );
      const csv = await evidence(acme, `${period}&format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const lines = csv.text.trim().split('\n');
      expect(lines[0]).toBe('recorded_at,workflow_id,workflow_version,run_id,node_id,action_type,purpose,rule,player_id,state_hash');
      expect(lines.slice(1)).toEqual(json.body.data.map((row: Record<string, unknown>) => Object.values(row).join(',')));

      // Append-only: the table refuses an update.
      await expect(app.deps.db('marketing_evidence').where({ operator_id: acme.operator.operatorId }).update({ rule: 'allowed' })).rejects.toThrow(
        /append-only/,
      );
    });

    it('withdrawn consent suppresses an email (no_consent); an HTTP step the designer did not mark is not gated', async () => {
      await player(acme, 'p-optout', { compliance: fine, consent: { email: false } });
      const workflow = await acme.create(depositEmail('Opt-out email'));
      const run = await depositRun(acme, workflow.id, 'p-optout');
      expect(run.nodes[2].output).toMatchObject({ suppressed: true, rule: 'no_consent', playerId: 'p-optout' });
      expect(smtp.received.some((mail) => mail.to.includes('p-optout@players.test'))).toBe(false);

      const provider = await startProvider(() => ({ status: 200, body: { ok: true } }));
      try {
        const calls = await acme.create({
          ...depositEmail('Supplier calls'),
          nodes: [
            { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
            {
              id: 'notify',
              type: 'action.http_request',
              params: { method: 'POST', url: `${provider.url}/crm`, body: { player: '{{ trigger.entity.externalId }}' } },
            },
            { id: 'bonus', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/bonus`, purpose: 'bonus', channel: 'sms' } },
          ],
          edges: [
            { from: 'deposit', to: 'notify' },
            { from: 'notify', to: 'bonus' },
          ],
        });
        const supplied = await depositRun(acme, calls.id, 'p-excluded');
        expect(supplied.nodes.map((node: any) => [node.id, node.status])).toEqual([
          ['deposit', 'completed'],
          ['notify', 'completed'],
          ['bonus', 'completed'],
        ]);
        expect(supplied.nodes[1].output).toMatchObject({ status: 200 });
        expect(supplied.nodes[2].output).toMatchObject({ suppressed: true, rule: 'self_excluded' });
        expect(provider.requests.map((request) => request.path)).toEqual(['/crm']);
        const rows = await app.deps.db('marketing_evidence').where({ operator_id: acme.operator.operatorId, run_id: supplied.id });
        expect(rows.map((row) => [row.node_id, row.purpose, row.rule])).toEqual([['bonus', 'bonus', 'self_excluded']]);
      } finally {
        await provider.close();
      }
    });

    it('a configured deposit limit suppresses once completed deposits reach it (deposit_limit_reached)', async () => {
      const initech = await automationsClient(app);
      expect((await initech.wf('/compliance/settings', { method: 'PUT', body: { rules: { depositLimit: true }, depositLimitHours: 24 } })).status).toBe(200);
      await player(initech, 'p-limit', { compliance: { ...fine, depositLimit: 3000 }, consent: { email: true } });
      const workflow = await initech.create(depositEmail('Limit email'));
      expect((await depositRun(initech, workflow.id, 'p-limit')).nodes[2].output).toMatchObject({ delivery: 'smtp' });
      const recorded = await initech.call('/entities/p-limit/events', {
        method: 'POST',
        body: { eventType: 'transaction', data: { type: 'deposit', amount: 3000, currency: 'EUR', status: 'completed' } },
      });
      expect(recorded.status).toBe(201);
      await waitForRuns(initech, workflow.id, 2, 30_000);
      const run = await depositRun(initech, workflow.id, 'p-limit');
      expect(run.nodes[2].output).toMatchObject({ suppressed: true, rule: 'deposit_limit_reached', playerId: 'p-limit' });
    });

    it("answers evidence exports within bounds (400 naming the field) and shows another operator's evidence to no one", async () => {
      const now = new Date().toISOString();
      const reversed = await evidence(acme, `from=${now}&to=${started}`);
      expect(reversed).toMatchObject({
        status: 400,
        body: { success: false, error: { code: 'VALIDATION_FAILED', details: [{ field: 'to', message: 'must be after from' }] } },
      });
      const tooLong = await evidence(acme, `from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`);
      expect(tooLong.body.error.details).toEqual([{ field: 'to', message: 'the period may span at most 93 days' }]);
      expect((await evidence(acme, 'to=2026-06-01T00:00:00Z')).body.error).toMatchObject({ code: 'MISSING_FIELDS', details: [{ field: 'from' }] });

      const theirs = await evidence(globex, `from=${started}&to=${new Date(Date.now() + 1000).toISOString()}`);
      expect(theirs).toMatchObject({ status: 200, body: { success: true, data: [], count: 0 } });
    });
  });

  describe('harm indicators', () => {
    const deposit = (client: AutomationsClient, externalId: string, data: Record<string, unknown> = {}) =>
      client.call(`/entities/${externalId}/events`, {
        method: 'POST',
        body: { eventType: 'transaction', data: { type: 'deposit', amount: 2000, currency: 'EUR', ...data } },
      });
    const indicators = (operatorId: string) => app.deps.db('harm_indicators').where({ operator_id: operatorId }).orderBy('seq');
    const harmEvents = (operatorId: string) => app.deps.db('outbox_events').where({ operator_id: operatorId }).where('event', 'like', 'harm.%').orderBy('seq');
    /** Indicators are computed by the outbox dispatcher: waits until it has claimed, checked and settled every transaction of the operator. */
    const checked = async (operatorId: string) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [row] = await app.deps
          .db('outbox_events')
          .where({ operator_id: operatorId, event: 'entity_event.transaction' })
          .whereNull('dispatched_at')
          .count<{ count: string }[]>({ count: '*' });
        if (Number(row?.count) === 0) return;
        if (Date.now() > deadline) throw new Error(`${row?.count} transactions still pending`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    it('deposit velocity fires once per crossing, triggers its automation, and that marketing step is suppressed', async () => {
      expect((await globex.wf('/compliance/settings', { method: 'PUT', body: { harm: { depositVelocity: { deposits: 3, windowMinutes: 60 } } } })).status).toBe(
        200,
      );
      await player(globex, 'p-fast', { consent: { email: true } });
      const workflow = await globex.create({
        name: 'Velocity outreach',
        nodes: [
          { id: 'harm', type: 'trigger.event', params: { event: 'harm.deposit_velocity' } },
          { id: 'offer', type: 'action.send_email', params: { to: 'p-fast@players.test', subject: 'Reload bonus', text: 'Come back', purpose: 'bonus' } },
        ],
        edges: [{ from: 'harm', to: 'offer' }],
      });

      for (let i = 0; i < 5; i += 1) expect((await deposit(globex, 'p-fast')).status).toBe(201);
      await checked(globex.operator.operatorId);
      const fired = await indicators(globex.operator.operatorId);
      expect(fired.map((row) => [row.indicator, row.details.thresholdDeposits])).toEqual([['deposit_velocity', 3]]);
      expect(fired[0].details.deposits).toBeGreaterThanOrEqual(3);
      expect((await harmEvents(globex.operator.operatorId)).map((row) => row.event)).toEqual(['harm.deposit_velocity']);

      const [run] = await waitForRuns(globex, workflow.id, 1, 30_000);
      expect(run).toMatchObject({ status: 'completed', source: 'event' });
      expect(run.nodes[1]).toMatchObject({ id: 'offer', output: { suppressed: true, rule: 'harm_indicator', playerId: 'p-fast' } });
      const [row] = await app.deps.db('marketing_evidence').where({ operator_id: globex.operator.operatorId, run_id: run.id });
      expect(row).toMatchObject({ rule: 'harm_indicator', purpose: 'bonus', player_id: 'p-fast' });
      expect(smtp.received.some((mail) => mail.to.includes('p-fast@players.test'))).toBe(false);
    });

    it('an imported history of old deposits fires nothing; a live deposit after it counts only the live ones', async () => {
      expect((await globex.wf('/compliance/settings', { method: 'PUT', body: { harm: { depositVelocity: { deposits: 3, windowMinutes: 60 } } } })).status).toBe(
        200,
      );
      await player(globex, 'p-imported');
      const before = (await indicators(globex.operator.operatorId)).length;
      const lastMonth = (day: number) => new Date(Date.now() - (30 - day) * 86_400_000).toISOString();
      for (let day = 0; day < 5; day += 1) expect((await deposit(globex, 'p-imported', { timestamp: lastMonth(day) })).status).toBe(201);
      expect((await deposit(globex, 'p-imported')).status).toBe(201);
      await checked(globex.operator.operatorId);
      const fired = (await indicators(globex.operator.operatorId)).slice(before).filter((row) => row.indicator === 'deposit_velocity');
      expect(fired).toEqual([]);

      for (let i = 0; i < 2; i += 1) expect((await deposit(globex, 'p-imported')).status).toBe(201);
      await checked(globex.operator.operatorId);
      const now = (await indicators(globex.operator.operatorId)).slice(before).filter((row) => row.indicator === 'deposit_velocity');
      expect(now.map((row) => row.details.deposits)).toEqual([3]);
    });

    it('eight deposits at once for one player cross the threshold once; another player depositing meanwhile fires its own', async () => {
      const threshold = { harm: { depositVelocity: { deposits: 3, windowMinutes: 60 } } };
      expect((await globex.wf('/compliance/settings', { method: 'PUT', body: threshold })).status).toBe(200);
      await player(globex, 'p-burst');
      await player(globex, 'p-burst-2');
      const before = (await indicators(globex.operator.operatorId)).length;
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => deposit(globex, 'p-burst')),
        ...Array.from({ length: 3 }, () => deposit(globex, 'p-burst-2')),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(Array(11).fill(201));
      await checked(globex.operator.operatorId);
      const fired = (await indicators(globex.operator.operatorId)).slice(before).filter((row) => row.indicator === 'deposit_velocity');
      const byPlayer = await app.deps
        .db('entities')
        .where({ operator_id: globex.operator.operatorId })
        .whereIn(
          'id',
          fired.map((row) => row.entity_id),
        )
        .select('id', 'external_id');
      const externalOf = new Map(byPlayer.map((row) => [row.id, row.external_id]));
      expect(fired.map((row) => externalOf.get(row.entity_id)).sort()).toEqual(['p-burst', 'p-burst-2']);
    });

    it('a deposit soon after a reversed withdrawal fires once per withdrawal', async () => {
      await player(globex, 'p-reverse');
      const withdrawal = { type: 'withdrawal', amount: 9000, currency: 'EUR', status: 'reversed' };
      expect((await globex.call('/entities/p-reverse/events', { method: 'POST', body: { eventType: 'transaction', data: withdrawal } })).status).toBe(201);
      expect((await deposit(globex, 'p-reverse')).status).toBe(201);
      expect((await deposit(globex, 'p-reverse')).status).toBe(201);
      await checked(globex.operator.operatorId);
      const fired = (await indicators(globex.operator.operatorId)).filter((row) => row.indicator === 'deposit_after_reversed_withdrawal');
      expect(fired).toHaveLength(1);
      expect(fired[0].details).toMatchObject({ withdrawalStatus: 'reversed', windowMinutes: 30 });
      expect((await harmEvents(globex.operator.operatorId)).map((row) => row.event)).toContain('harm.deposit_after_reversed_withdrawal');
      expect(await indicators(acme.operator.operatorId)).toEqual([]);
    });

    it('the deposit that crosses a threshold finds its player at risk in the runs it starts itself', async () => {
      const hooli = await automationsClient(app);
      expect((await hooli.wf('/compliance/settings', { method: 'PUT', body: { harm: { depositVelocity: { deposits: 2, windowMinutes: 60 } } } })).status).toBe(
        200,
      );
      await player(hooli, 'p-second');
      const provider = await startProvider(() => ({ status: 200, body: { ok: true } }));
      try {
        const workflow = await hooli.create({
          name: 'Bonus on every deposit',
          nodes: [
            { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
            { id: 'bonus', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/bonus`, purpose: 'bonus', channel: 'sms' } },
          ],
          edges: [{ from: 'deposit', to: 'bonus' }],
        });
        expect((await deposit(hooli, 'p-second')).status).toBe(201);
        const [first] = await waitForRuns(hooli, workflow.id, 1, 30_000);
        expect(first.nodes[1]).toMatchObject({ id: 'bonus', status: 'completed', output: { status: 200 } });

        expect((await deposit(hooli, 'p-second')).status).toBe(201);
        const runs = await waitForRuns(hooli, workflow.id, 2, 30_000);
        const second = runs.find((run) => run.id !== first.id);
        expect(second.nodes[1]).toMatchObject({ id: 'bonus', status: 'completed', output: { suppressed: true, rule: 'harm_indicator', playerId: 'p-second' } });
        expect(provider.requests.map((request) => request.path)).toEqual(['/bonus']);
        expect((await indicators(hooli.operator.operatorId)).map((row) => row.indicator)).toEqual(['deposit_velocity']);
      } finally {
        await provider.close();
      }
    });
  });
});
