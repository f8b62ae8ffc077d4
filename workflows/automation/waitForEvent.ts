import { CancellationScope, condition, defineSignal, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { RunContext } from '../../core/automations/expressions';
import type { LiveWait } from '../../core/automations/liveRun';
import type { WaitOutput } from '../../core/automations/nodes/waitForEvent';
import { isRecord } from '../../core/automations/types';
import { eventFilterHolds } from './expressions';
import { NodeError } from './nodeError';

/** What the outbox dispatcher signals a waiting run with: where the event is (its outbox `seq`) and its id. */
export interface WaitEventSignal {
  nodeId: string;
  eventId: string;
  seq: string;
}

/** Sent by the dispatcher (worker/runWaitSignals.ts) for each event that may end a wait; the run checks it before taking it. */
export const waitEventSignal = defineSignal<[WaitEventSignal]>('waitEvent');

const waits = proxyLocalActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 10, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** Whose events the wait takes when the node names nobody: the entity of the event that started the run. */
function entityOf(context: RunContext): string | undefined {
  const entity = isRecord(context.trigger) ? context.trigger.entity : undefined;
  return isRecord(entity) && typeof entity.externalId === 'string' && entity.externalId !== '' ? entity.externalId : undefined;
}

/**
 * `action.wait_for_event` (core/automations/nodes/waitForEvent.ts): registers the wait, then takes the first event that
 * is the operator's, of the awaited name, about the entity, not older than the wait, and passes the filter — from the
 * registration's answer (events recorded while it registered) or from a signal — or times out. Each event id is
 * looked at once, so a signal delivered twice changes nothing. The wait's row is removed however the node ends.
 */
export async function waitForEvent(
  params: Record<string, unknown>,
  scope: { operatorId: string; runId: string; nodeId: string; context: RunContext; onWait?: ((wait: LiveWait) => void) | undefined },
): Promise<WaitOutput> {
  const externalId = params.externalId === undefined ? entityOf(scope.context) : String(params.externalId);
  if (!externalId)
    throw new NodeError('WAIT_WITHOUT_ENTITY', 'The run has no entity to wait for: the trigger is not an entity event, so set externalId on this step');
  const event = String(params.event);
  const filter = typeof params.filter === 'string' && params.filter.trim() !== '' ? params.filter : null;
  const seconds = Number(params.timeoutSeconds);
  const since = new Date(Date.now()).toISOString();
  const deadline = Date.now() + seconds * 1000;
  scope.onWait?.({ for: 'event', event, until: new Date(deadline).toISOString() });
  const seen = new Set<string>();
  const pending: Array<{ seq: string; eventId: string }> = [];
  const offer = (candidate: { seq: string; eventId: string }) => {
    if (seen.has(candidate.eventId)) return;
    seen.add(candidate.eventId);
    pending.push(candidate);
  };
  setHandler(waitEventSignal, (signal) => {
    if (signal.nodeId === scope.nodeId) offer({ seq: signal.seq, eventId: signal.eventId });
  });
  const where = { operatorId: scope.operatorId, runId: scope.runId, nodeId: scope.nodeId };
  try {
    const registered = await CancellationScope.nonCancellable(() =>
      waits.registerRunWait({
        ...where,
        temporalWorkflowId: workflowInfo().workflowId,
        event,
        externalId,
        since,
        until: new Date(deadline).toISOString(),
      }),
    );
    registered.candidates.forEach(offer);
    for (;;) {
      if (pending.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0 || !(await condition(() => pending.length > 0, left))) return { happened: 'timeout' };
      }
      const candidate = pending.shift()!;
      const arrived = await waits.loadWaitedEvent({ operatorId: scope.operatorId, candidate, event, externalId, since });
      if (!arrived) continue;
      if (filter && !(await eventFilterHolds(filter, arrived, scope.context, scope.operatorId))) continue;
      return { happened: 'event', event: arrived };
    }
  } finally {
    setHandler(waitEventSignal, undefined);
    await CancellationScope.nonCancellable(() => waits.endRunWait(where));
  }
}
