import { post } from '../stack/stackClient';
import { markerAutomation, markerEvent, pendingOutbox, settleRuns, tallyRuns } from './fixtures';
import { chaosOperator, result, sleep, waitUntil, withSurvivingWorker, type ChaosContext, type Scenario, type ScenarioResult } from './lib';

/** Events of one batch request (the batch endpoint takes up to 5,000). */
const BATCH = 500;

/**
 * 10. One tenant floods past its share: batches of deposits into an automation whose filter needs the expression sandbox
 * (`$contains`, not judged inline), far past its burst of run starts (`EVENT_RUNS_BURST`, then `EVENT_RUNS_PER_SECOND`) and its runs in flight
 * (`RUNS_IN_FLIGHT_PER_OPERATOR`, 50 per worker; 2 while the bystander is active, `RUNS_IN_FLIGHT_CONTENDED`, so the
 * flood drains at about 2 ÷ a run's time: its runs get 8 minutes to settle),
 * while a bystander tenant trickles one deposit every 250 ms into its own automation. The worker that dispatches is
 * SIGKILLed mid-flood (a second worker, never killed, dispatches on). Every flood event must start its run exactly
 * once, later — none lost for the budget, none duplicated by the kill (counted in PostgreSQL: runs per workflow, one per
 * event id) — and every bystander event its run too.
 */
export const dispatchFlood: Scenario = (context) => withSurvivingWorker(context, () => floodBesideSurvivor(context));

async function floodBesideSurvivor(context: ChaosContext): Promise<ScenarioResult> {
  const events = context.short ? 1_000 : 2_000;
  const { url } = context.api;
  const flood = await chaosOperator(url);
  const bystander = await chaosOperator(url);
  for (const tenant of [flood, bystander])
    await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-flood', data: {} }, tenant.key);
  const flooded = await post(
    url,
    '/workflows-api/workflows',
    {
      name: 'Chaos flood',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: '$contains(trigger.data.type, "dep")' } },
        { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 1 } },
      ],
      edges: [{ from: 'start', to: 'mark' }],
    },
    flood.key,
  );
  const floodWorkflow = flooded.data.id as string;
  const bystanderWorkflow = await markerAutomation(url, bystander.key, 'Chaos bystander');

  let trickling = true;
  let trickled = 0;
  const trickle = (async () => {
    while (trickling) {
      await post(
        url,
        '/operator-data-api/entities/chaos-flood/events',
        { eventType: markerEvent.eventType, data: markerEvent.data(`b-${trickled}`) },
        bystander.key,
      );
      trickled += 1;
      await sleep(250);
    }
  })();
  const failures: string[] = [];
  for (let sent = 0; sent < events; sent += BATCH) {
    const items = Array.from({ length: Math.min(BATCH, events - sent) }, (_, index) => ({
      externalId: 'chaos-flood',
      eventType: 'transaction',
      data: { type: 'deposit', amount: sent + index + 1, currency: 'EUR' },
    }));
    await post(url, '/operator-data-api/batch/events', items, flood.key);
  }
  await waitUntil(
    async () => ((await tallyRuns(context.db, flood.operatorId, floodWorkflow)).runs >= 300 ? true : undefined),
    120_000,
    'flood dispatch begun',
    100,
  ).catch((error: Error) => failures.push(error.message));
  const backlogAtKill = await pendingOutbox(context.db, flood.operatorId);
  await context.worker.kill('SIGKILL');
  context.worker = await context.stack.spawnWorker();
  const floodTally = await settleRuns(context.db, flood.operatorId, floodWorkflow, events, 480_000);
  trickling = false;
  await trickle;
  const bystanderTally = await settleRuns(context.db, bystander.operatorId, bystanderWorkflow, trickled, 60_000);

  const { rows } = await context.db.raw<{ rows: Array<{ runs: number; events: number }> }>(
    `SELECT count(*)::int AS runs, count(DISTINCT temporal_workflow_id)::int AS events FROM automation_runs WHERE operator_id = ? AND automation_id = ?`,
    [flood.operatorId, floodWorkflow],
  );
  const distinct = rows[0]!;
  if (floodTally.completed !== events) failures.push(`flood: ${events} events, runs ${JSON.stringify(floodTally)}`);
  if (bystanderTally.completed !== trickled) failures.push(`bystander: ${trickled} events, runs ${JSON.stringify(bystanderTally)}`);
  const left = await pendingOutbox(context.db, flood.operatorId);
  if (left > 0) failures.push(`${left} flood events still pending`);
  return {
    ...result(
      `tenant flood past its share x${events}`,
      {
        sent: events + trickled,
        stored: Math.min(distinct.events, events) + Math.min(bystanderTally.runs, trickled),
        lost: Math.max(0, events - distinct.events) + Math.max(0, trickled - bystanderTally.runs),
        duplicated: distinct.runs - distinct.events,
        fiveXx: 0,
        recoveryMs: null,
      },
      failures,
    ),
    extra: `backlog-at-kill=${backlogAtKill} bystander=${trickled}`,
  };
}
