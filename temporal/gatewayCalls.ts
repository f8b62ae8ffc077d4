import { randomUUID } from 'node:crypto';
import { ApplicationFailure, type Client, WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { isGatewayFailureCode, type GatewayFailureCode } from '../core/gateway/failures';
import type { GatewayCallInput, GatewayCallRequest, GatewayCallResult, GatewayLimits } from '../core/workflowContracts';
import { CALL_TOO_LATE, gatewayCallUpdate, gatewayLaneWorkflow, LANE_CALLS_PER_RUN, SEND_START_TIMEOUT_MS } from '../workflows/gatewayCall';

/** Lanes per operator in this process: a call takes an idle one, and a new one while fewer exist. */
const MAX_LANES = 16;
/** How often a call is tried again on another run or lane (the lane ended, held the server's 10 in-flight Updates, or stalled). */
const LANE_RETRIES = 5;
/** Lanes a call is moved to after the one it was sent to stalled. */
const MAX_STALLS = 1;
/** A POST or PATCH is not sent later than this before its caller's deadline (`sendBy`), clock skew between hosts included. */
const SEND_BY_MARGIN_MS = 3_000;

/** A synchronous call through Temporal that did not finish within its deadline (Temporal or every worker away). */
export class CallDeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallDeadlineError';
  }
}

export type GatewayCallOutcome =
  /** The provider answered (2xx or not), or could not be reached after every attempt allowed. */
  | { kind: 'completed'; result: GatewayCallResult }
  /** The gateway refused before or instead of contacting the provider (spec 7.3 codes); `RATE_LIMITED` says when to retry. */
  | { kind: 'refused'; code: GatewayFailureCode; message: string; retryAfterSeconds?: number };

/** The gateway refusal inside a failed Update or workflow (… → ActivityFailure → ApplicationFailure), if any. */
export function gatewayFailureOf(error: unknown): { code: GatewayFailureCode; message: string; retryAfterSeconds?: number } | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ApplicationFailure && isGatewayFailureCode(current.type)) {
      const retryAfterSeconds = (current.details?.[0] as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      return { code: current.type, message: current.message, ...(typeof retryAfterSeconds === 'number' ? { retryAfterSeconds } : {}) };
    }
    current = current.cause;
  }
  return null;
}

/** The server refused an Update because the lane already has as many in flight as it allows. */
const laneFull = (error: unknown) =>
  error instanceof Error && /in-flight updates/i.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`);

interface Lane {
  id: string;
  inFlight: number;
  /** Last seen running; a lane that ended since answers NotFound and is started again. */
  running: boolean;
}

/** How long a lane has to accept a call; past it the lane refuses the call (`acceptBy`) and another lane takes it. */
export const ACCEPT_WINDOW_MS = 5_000;
/** Clock skew allowed between this process and the Temporal server when judging whether a call can still be accepted. */
const ACCEPT_MARGIN_MS = 1_000;
const { UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED: ACCEPTED, UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED: COMPLETED } =
  temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage;

/** A lane did not accept a call in time (it cannot run its workflow task, or is that far behind): another may. */
export class LaneStalledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaneStalledError';
  }
}

/**
 * The lanes of one process (`gatewayLaneWorkflow`, up to {@link MAX_LANES} per operator): a call goes to an
 * idle lane of its operator as an Update (its id the call id and a nonce of the request), and a lane is started with its first call
 * (update-with-start). Lane ids carry the process's instance id, so API instances never compete for one, and a
 * new release (new processes) starts new lanes. A lane that does not accept a call within {@link ACCEPT_WINDOW_MS}
 * — a lane whose history the workers cannot replay, or that is stuck — is retired and the call goes to a new one;
 * the call carries `acceptBy`, so the stalled lane can never run it later.
 */
export class GatewayLanes {
  private readonly lanes = new Map<string, Lane[]>();
  /** Lane numbers per operator: a retired lane's number is never used again. */
  private readonly numbered = new Map<string, number>();

  constructor(
    private readonly temporal: { client: Client; taskQueue: string; instanceId: string },
    private readonly options: { callsPerRun?: number } = {},
  ) {}

  /** The part of lane ids that names this process. */
  get instanceId(): string {
    return this.temporal.instanceId;
  }

  /**
   * An idle lane, else a new one, else the least busy: a lane's workflow task lasts as long as its calls, so a
   * call joining a busy lane waits for the calls already there. Only past {@link MAX_LANES} concurrent calls of
   * one operator do calls share a lane.
   */
  private pick(operatorId: string): Lane {
    const lanes = this.lanes.get(operatorId) ?? [];
    this.lanes.set(operatorId, lanes);
    const idle = lanes.find((lane) => lane.inFlight === 0);
    if (idle) return idle;
    if (lanes.length < MAX_LANES) {
      const number = this.numbered.get(operatorId) ?? 0;
      this.numbered.set(operatorId, number + 1);
      const lane = { id: `gateway-lane-${operatorId}-${this.temporal.instanceId}-${number}`, inFlight: 0, running: false };
      lanes.push(lane);
      return lane;
    }
    return lanes.reduce((least, lane) => (lane.inFlight < least.inFlight ? lane : least));
  }

  private retire(operatorId: string, lane: Lane): void {
    const lanes = this.lanes.get(operatorId) ?? [];
    this.lanes.set(
      operatorId,
      lanes.filter((other) => other !== lane),
    );
  }

  private update(lane: Lane, operatorId: string, request: GatewayCallRequest, updateId: string): Promise<GatewayCallResult> {
    const { client, taskQueue } = this.temporal;
    if (lane.running) return client.workflow.getHandle(lane.id).executeUpdate(gatewayCallUpdate, { args: [request], updateId });
    const startWorkflowOperation = new WithStartWorkflowOperation(gatewayLaneWorkflow, {
      workflowId: lane.id,
      taskQueue,
      args: [{ operatorId, callsPerRun: this.options.callsPerRun ?? LANE_CALLS_PER_RUN }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      // A lane continues as new well before this; a lane that cannot run (a worker that cannot replay it) is closed by the server.
      workflowRunTimeout: '1 hour',
    });
    return client.workflow.executeUpdateWithStart(gatewayCallUpdate, { args: [request], updateId, startWorkflowOperation }).then((result) => {
      lane.running = true;
      return result;
    });
  }

  /** Whether the lane has accepted (or already completed) the call's Update: one poll, bounded by the margin. */
  private async accepted(lane: Lane, updateId: string): Promise<boolean> {
    const { client } = this.temporal;
    try {
      const response = await client.withDeadline(Date.now() + ACCEPT_MARGIN_MS, () =>
        client.workflowService.pollWorkflowExecutionUpdate({
          namespace: client.options.namespace,
          updateRef: { workflowExecution: { workflowId: lane.id }, updateId },
          identity: client.options.identity,
          waitPolicy: { lifecycleStage: ACCEPTED },
        }),
      );
      return response.stage === ACCEPTED || response.stage === COMPLETED;
    } catch {
      return false;
    }
  }

  /** One Update on one lane; a {@link LaneStalledError} when the lane has not accepted it once it no longer may. */
  private async send(lane: Lane, operatorId: string, request: GatewayCallRequest, updateId: string): Promise<GatewayCallResult> {
    const abort = new AbortController();
    const acceptBy = Date.now() + ACCEPT_WINDOW_MS;
    const stall = () => new LaneStalledError(`lane ${lane.id} did not accept call ${request.callId} within ${ACCEPT_WINDOW_MS} ms`);
    // An Update held up by the client's own retries (Temporal away) can reach the lane after `acceptBy`: refused, never sent.
    const result = this.temporal.client
      .withAbortSignal(abort.signal, () => this.update(lane, operatorId, { ...request, acceptBy }, updateId))
      .catch((error: unknown) => {
        throw error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type === CALL_TOO_LATE ? stall() : error;
      });
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'check'>((resolve) => {
      timer = setTimeout(() => resolve('check'), ACCEPT_WINDOW_MS + ACCEPT_MARGIN_MS);
    });
    try {
      const first = await Promise.race([result, stalled]);
      if (first !== 'check') return first;
      if (await this.accepted(lane, updateId)) return await result;
      abort.abort();
      result.catch(() => undefined);
      throw stall();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends one call through a lane and waits for its outcome. A call is tried again on another run or lane only
   * when the lane did not take it (it ended, continued as new, was full, or stalled past `acceptBy`), so trying it
   * again cannot send it twice.
   */
  async call(request: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallResult> {
    // Temporal answers a repeated Update id with its first result: a retry under the same Idempotency-Key of a call
    // that was not sent (its key freed) must run, not hear the old refusal. One id per request keeps dedup within it.
    const updateId = `${request.callId}:${randomUUID()}`;
    let stalls = 0;
    for (let attempt = 0; ; attempt += 1) {
      const lane = this.pick(request.operatorId);
      lane.inFlight += 1;
      try {
        return await this.send(lane, request.operatorId, request, updateId);
      } catch (error) {
        const gone = error instanceof WorkflowNotFoundError;
        // A second lane stalling too means no worker runs lanes now: the caller hears it rather than waiting on a third.
        const stalled = error instanceof LaneStalledError && (stalls += 1) <= MAX_STALLS;
        if (attempt >= LANE_RETRIES || !(gone || stalled || laneFull(error))) throw error;
        if (gone) lane.running = false;
        else if (stalled) this.retire(request.operatorId, lane);
        else await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
      } finally {
        lane.inFlight -= 1;
      }
    }
  }
}

/**
 * How long a caller waits for a call before it stops (`runGatewayCall`): room for every attempt of a GET, PUT or
 * DELETE, and for a POST or PATCH to be resolved, begun within `SEND_START_TIMEOUT_MS` and sent, plus a margin.
 */
export function gatewayCallDeadlineMs(limits: GatewayLimits): number {
  const retried = limits.maxAttempts * (limits.timeoutMs + 7_000);
  const sentOnce = 2 * (limits.timeoutMs + 5_000) + SEND_START_TIMEOUT_MS + ACCEPT_WINDOW_MS;
  return Math.max(retried, sentOnce) + 15_000;
}

/**
 * Runs one synchronous gateway call (spec 4.3) through the operator's lane and waits for it, at most
 * {@link gatewayCallDeadlineMs}. A POST or PATCH is not sent after `sendBy`, a little before that deadline, so a caller
 * that gave up can find out from `gateway_calls` whether it was sent. Rejects only for faults of the platform
 * itself (Temporal unreachable, the deadline passed, a send that timed out).
 *
 * @example const outcome = await runGatewayCall(temporal, { operatorId, connectionId, operation: 'kyc.status', callId, caller: 'api' }, { timeoutMs: 10_000, maxAttempts: 3 })
 */
export async function runGatewayCall(temporal: { gatewayLanes: GatewayLanes }, call: GatewayCallInput, limits: GatewayLimits): Promise<GatewayCallOutcome> {
  const deadlineMs = gatewayCallDeadlineMs(limits);
  const sendBy = Date.now() + deadlineMs - SEND_BY_MARGIN_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallDeadlineError(`gateway call did not finish within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const result = await Promise.race([temporal.gatewayLanes.call({ ...call, ...(call.caller === 'api' ? { sendBy } : {}), limits }), deadline]);
    return { kind: 'completed', result };
  } catch (error) {
    const failure = gatewayFailureOf(error);
    if (failure) return { kind: 'refused', ...failure };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
