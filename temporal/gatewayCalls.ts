import { ApplicationFailure, type Client, WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import { isGatewayFailureCode, type GatewayFailureCode } from '../core/gateway/failures';
import type { GatewayCallInput, GatewayCallResult, GatewayLimits } from '../core/workflowContracts';
import { gatewayCallUpdate, gatewayLaneWorkflow } from '../workflows/gatewayCall';

/** Lanes per operator in this process: a call takes an idle one, and a new one while fewer exist. */
const MAX_LANES = 16;
/** How often a call is tried again on another run or lane (the lane ended, or held the server's 10 in-flight Updates). */
const LANE_RETRIES = 5;

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
  /** The gateway refused before or instead of contacting the provider (spec 7.3 codes). */
  | { kind: 'refused'; code: GatewayFailureCode; message: string };

/** The gateway refusal inside a failed Update or workflow (… → ActivityFailure → ApplicationFailure), if any. */
export function gatewayFailureOf(error: unknown): { code: GatewayFailureCode; message: string } | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ApplicationFailure && isGatewayFailureCode(current.type)) return { code: current.type, message: current.message };
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

/**
 * The lanes of one process (`gatewayLaneWorkflow`, up to {@link MAX_LANES} per operator): a call goes to an
 * idle lane of its operator as an Update, and a lane is started with its first call (update-with-start).
 * Lane ids carry the process's instance id, so API instances never compete for one.
 */
export class GatewayLanes {
  private readonly lanes = new Map<string, Lane[]>();

  constructor(
    private readonly temporal: { client: Client; taskQueue: string; instanceId: string },
    private readonly options: { callsPerRun?: number } = {},
  ) {}

  /**
   * An idle lane, else a new one, else the least busy: a lane's workflow task lasts as long as its calls, so a
   * call joining a busy lane waits for the calls already there. Only past {@link MAX_LANES} concurrent calls of
   * one operator do calls share a lane.
   */
  /** The part of lane ids that names this process. */
  get instanceId(): string {
    return this.temporal.instanceId;
  }

  private pick(operatorId: string): Lane {
    const lanes = this.lanes.get(operatorId) ?? [];
    this.lanes.set(operatorId, lanes);
    const idle = lanes.find((lane) => lane.inFlight === 0);
    if (idle) return idle;
    if (lanes.length < MAX_LANES) {
      const lane = { id: `gateway-lane-${operatorId}-${this.temporal.instanceId}-${lanes.length}`, inFlight: 0, running: false };
      lanes.push(lane);
      return lane;
    }
    return lanes.reduce((least, lane) => (lane.inFlight < least.inFlight ? lane : least));
  }

  private async send(lane: Lane, operatorId: string, request: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallResult> {
    const { client, taskQueue } = this.temporal;
    if (lane.running) return client.workflow.getHandle(lane.id).executeUpdate(gatewayCallUpdate, { args: [request] });
    const startWorkflowOperation = new WithStartWorkflowOperation(gatewayLaneWorkflow, {
      workflowId: lane.id,
      taskQueue,
      args: [{ operatorId, ...(this.options.callsPerRun ? { callsPerRun: this.options.callsPerRun } : {}) }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      // A lane continues as new well before this; a lane that cannot run (a worker that cannot replay it) is closed by the server.
      workflowRunTimeout: '1 hour',
    });
    const result = await client.workflow.executeUpdateWithStart(gatewayCallUpdate, { args: [request], startWorkflowOperation });
    lane.running = true;
    return result;
  }

  /**
   * Sends one call through a lane and waits for its outcome. A call lands on a lane that just ended or
   * continued as new only before the lane accepted it, so trying it again cannot send it twice.
   */
  async call(request: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallResult> {
    for (let attempt = 0; ; attempt += 1) {
      const lane = this.pick(request.operatorId);
      lane.inFlight += 1;
      try {
        return await this.send(lane, request.operatorId, request);
      } catch (error) {
        const gone = error instanceof WorkflowNotFoundError;
        if (attempt >= LANE_RETRIES || !(gone || laneFull(error))) throw error;
        if (gone) lane.running = false;
        else await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
      } finally {
        lane.inFlight -= 1;
      }
    }
  }
}

/**
 * Runs one synchronous gateway call (spec 4.3) through the operator's lane and waits for it, at most as
 * long as its attempts may take. Rejects only for faults of the platform itself (Temporal unreachable,
 * the deadline passed).
 *
 * @example const outcome = await runGatewayCall(temporal, { operatorId, connectionId, operation: 'kyc.status' }, { timeoutMs: 10_000, maxAttempts: 3 })
 */
export async function runGatewayCall(temporal: { gatewayLanes: GatewayLanes }, call: GatewayCallInput, limits: GatewayLimits): Promise<GatewayCallOutcome> {
  const deadlineMs = limits.maxAttempts * (limits.timeoutMs + 7_000) + 15_000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallDeadlineError(`gateway call did not finish within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const result = await Promise.race([temporal.gatewayLanes.call({ ...call, limits }), deadline]);
    return { kind: 'completed', result };
  } catch (error) {
    const failure = gatewayFailureOf(error);
    if (failure) return { kind: 'refused', ...failure };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
