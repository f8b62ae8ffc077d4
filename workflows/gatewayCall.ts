import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  defineUpdate,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { GatewayCallRequest, GatewayCallResult, GatewayLaneInput, GatewayLimits } from '../core/workflowContracts';

/** The failure type of an Update a lane refused for arriving past its `acceptBy`: it was never sent, another lane may take it. */
export const CALL_TOO_LATE = 'CALL_TOO_LATE';

/** Used when a caller gives no limits; they equal the documented defaults of GATEWAY_TIMEOUT_MS and GATEWAY_MAX_ATTEMPTS. */
const DEFAULT_LIMITS: GatewayLimits = { timeoutMs: 10_000, maxAttempts: 3 };
/**
 * How long a POST or PATCH may wait for a worker to begin sending it. Past it, Temporal never hands the activity out:
 * the call was not sent, and the caller — who waits longer than this plus the send (`gatewayCallDeadlineMs`) — can
 * tell the client so.
 */
export const SEND_START_TIMEOUT_MS = 5_000;

/**
 * One gateway call, for any workflow. A local activity resolves the call and, for GET, PUT and DELETE, sends
 * it too, retried on network errors and 5xx up to `maxAttempts` (each attempt bounded by `timeoutMs`): a
 * repeat is harmless, and no task-queue round trip through the server stands between caller and provider.
 * A POST or PATCH comes back resolved and is sent by a normal activity with a single attempt, whose attempts
 * the server counts, so even a worker crash mid-call cannot send it twice. Refusals surface as an
 * `ActivityFailure` whose cause is an `ApplicationFailure` typed with the spec code (CONNECTION_NOT_FOUND, …).
 *
 * @example const result = await executeGatewayCall({ operatorId, connectionId, operation: 'player.verify', params })
 */
export async function executeGatewayCall(request: GatewayCallRequest): Promise<GatewayCallResult> {
  const { limits = DEFAULT_LIMITS, ...call } = request;
  const startToCloseTimeout = limits.timeoutMs + 5_000;
  const { gatewayCallLocal } = proxyLocalActivities<Activities>({
    startToCloseTimeout,
    retry: { maximumAttempts: limits.maxAttempts, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds' },
  });
  const outcome = await gatewayCallLocal({ ...call, limits });
  if (outcome.kind === 'sent') return outcome.result;
  const { sendPreparedGatewayCall } = proxyActivities<Activities>({
    scheduleToStartTimeout: SEND_START_TIMEOUT_MS,
    startToCloseTimeout,
    retry: { maximumAttempts: 1 },
  });
  return sendPreparedGatewayCall({ ...call, prepared: outcome.prepared, limits });
}

/** A synchronous `POST /gateway` call, sent to the operator's lane; resolves with the provider outcome. */
export const gatewayCallUpdate = defineUpdate<GatewayCallResult, [GatewayCallRequest]>('gatewayCall');

/**
 * Calls a lane serves before it continues as new, as its starter asks (`temporal/gatewayCalls.ts`). A run's Updates
 * slow down as it takes more of them (`tools/bench/temporal/workflows.ts`): a lane rolling over every 100 calls answered
 * 4–5 % sooner at p50 than one rolling over every 500, in turns in one run, and every 50 gained nothing more.
 */
export const LANE_CALLS_PER_RUN = 100;
/** Calls per run of a lane started without `callsPerRun` (before starters gave it): its history replays with this. */
const UNSTATED_LANE_CALLS_PER_RUN = 500;
/** A lane with no call for a whole window this long ends (after one to two windows of quiet); the next call starts it again. */
export const LANE_IDLE_MS = 120_000;
/**
 * The patch that arms a lane's idle timer once per window instead of once per call: a timer started and cancelled
 * around every call cost each call two more commands and history events (measured: +1.4 ms p50 and +2.4 ms CPU per
 * Update). Lanes started before it replay the per-call timer.
 */
export const LANE_IDLE_WINDOWS = 'lane-idle-windows';
/** A run of a lane continues as new after this long, so none outlives its run timeout (`temporal/gatewayCalls.ts`). */
export const LANE_RUN_MS = 30 * 60_000;

/**
 * A lane: a long-lived workflow that runs one operator's synchronous gateway calls, each an Update whose
 * handler is {@link executeGatewayCall}. Calls cost an Update instead of a whole workflow execution (start,
 * first task, completion, visibility). A lane's workflow task lasts as long as its local activities, so
 * the caller sends each call to an idle lane when it can (`temporal/gatewayCalls.ts`): a slow provider
 * does not hold up the calls behind it. The lane continues as new after {@link LANE_CALLS_PER_RUN} calls or
 * {@link LANE_RUN_MS} (or when the server suggests it) and ends after a window of {@link LANE_IDLE_MS} without
 * calls, each time only once no call is in flight; calls the server admitted
 * meanwhile are retried on the next run (continue-as-new) or by the caller (`temporal/gatewayCalls.ts`).
 */
export async function gatewayLaneWorkflow(input: GatewayLaneInput): Promise<void> {
  let handled = 0;
  const startedAt = Date.now();
  setHandler(
    gatewayCallUpdate,
    async (request) => {
      handled += 1;
      return executeGatewayCall(request);
    },
    {
      validator: (request) => {
        if (request.operatorId !== input.operatorId) throw new Error("a call for another operator's lane");
        // Workflow time is this task's start: a call that reaches a lane stalled past its caller's patience is refused,
        // so the caller may send it through another lane without it ever being sent twice.
        if (request.acceptBy !== undefined && Date.now() > request.acceptBy)
          throw ApplicationFailure.create({ type: CALL_TOO_LATE, nonRetryable: true, message: 'the call reached the lane after its caller stopped waiting' });
      },
    },
  );
  const callsPerRun = input.callsPerRun ?? UNSTATED_LANE_CALLS_PER_RUN;
  const mustRoll = () => handled >= callsPerRun || Date.now() - startedAt >= LANE_RUN_MS || workflowInfo().continueAsNewSuggested;
  const windowed = patched(LANE_IDLE_WINDOWS);
  for (;;) {
    const seen = handled;
    // A call wakes the loop only in lanes from before the patch; others wake to roll over or at the window's end.
    const woken = await condition(() => (!windowed && handled !== seen) || mustRoll(), LANE_IDLE_MS);
    if (mustRoll()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof gatewayLaneWorkflow>(input);
    }
    const quiet = windowed ? handled === seen : !woken;
    if (quiet && allHandlersFinished()) return;
  }
}
