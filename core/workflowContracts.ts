/**
 * What goes into and comes out of each Temporal workflow: the contract shared by the workflows, the
 * starters in `temporal/` and the activities that serve them. Types only, so every layer may import it.
 */
import type { BatchKind } from './ingestItems';
import type { AutomationDefinition, NodeResult, RunError, RunSource } from './automations/types';

/** `automationRunWorkflow`: one run of an operator automation. */
export interface AutomationRunInput {
  operatorId: string;
  /** The automation's id (`wf_…`). */
  automationId: string;
  /**
   * The automation's id under its name before `automationId`: Temporal Schedules created earlier still start runs
   * with it, so the run workflow reads `automationId ?? workflowId`.
   * @deprecated
   */
  workflowId?: string;
  source: RunSource;
  /** The trigger payload: the test body, the MCP tool arguments, the webhook body or the internal event. */
  input: unknown;
  /** Pre-assigned by API starts (so the caller knows it at once); made in the workflow otherwise. */
  runId?: string;
  /** The trigger node that fired; defaults to the first trigger node matching the source. */
  triggerNodeId?: string;
  /** MCP runs: `<session> <JSON-RPC id>` of the `tools/call`, recorded so a `notifications/cancelled` finds the run. */
  mcpRequest?: string;
  /**
   * Run this stored version of the automation (`automation_versions`) instead of its current definition, and record it
   * as the run's `workflowVersion`; a version the automation never had ends the run `ignored`.
   */
  pinnedVersion?: number;
  /**
   * A rerun of `runId` from the step `fromNodeId` (and, for a bulk replay, the job that started it): the begin activity
   * reads the original's trigger payload and recorded results itself, so `input` is null and no payload travels here.
   */
  rerun?: { runId: string; fromNodeId: string; replayId?: string };
  /**
   * The run as its starter already recorded it (commands/runs/begin.ts): a caller that waits for the run (a manual
   * test, an MCP `tools/call`) begins it before the start, so the workflow takes it from here instead of beginning
   * with a local activity. Absent, the run begins itself.
   */
  begun?: BegunRun;
  /**
   * With `begun`: how long the caller waits for the run's end, from its start. A run that ends well within it hands
   * its outcome back (`AutomationRunResult` `ended`) for the caller to store; a later one stores it itself.
   */
  callerWaitsMs?: number;
}

/** What the begin step of a run is given: the run's input with its pre-assigned ids and the time it starts. */
export interface BeginRunInput extends Omit<AutomationRunInput, 'begun'> {
  runId: string;
  temporalWorkflowId: string;
  startedAt: string;
}

/** A run the begin step recorded as running: what the interpreter executes. */
export interface BegunRun {
  kind: 'started';
  runId: string;
  workflow: { id: string; name: string; version: number };
  definition: AutomationDefinition;
  triggerNodeId: string;
  triggerType: string;
  reserved: { actions: number; aiActions: number };
  /** A rerun: the original's trigger payload and the results it keeps, which the interpreter does not run again. */
  rerun?: { input: unknown; reused: NodeResult[] };
}

export type BeginRunResult =
  /** The workflow does not exist for this operator, or is inactive for an automatic source: nothing recorded. */
  | { kind: 'ignored'; reason: string }
  /** This Temporal workflow id already has a run (a repeated start): nothing more to do. */
  | { kind: 'duplicate'; runId: string }
  /** Refused before any node (MISSING_TRIGGER_FIELD, QUOTA_EXCEEDED): the run is stored as failed, and read from there. */
  | { kind: 'rejected'; runId: string; source: RunSource }
  | BegunRun;

/** `runReplayWorkflow`: one bulk replay job (`run_replays`); the rest of the job is read from its row. */
export interface RunReplayInput {
  operatorId: string;
  replayId: string;
  /** The queue the reruns run on (the interactive one, as every automation run). */
  runTaskQueue: string;
  /** Where a continued job resumes: the last original run it started, by `(started_at, id)`; null at first. */
  after?: { startedAt: string; id: string } | null;
  /** Reruns started by earlier runs of the job, and of those the ones that never recorded themselves (counted failed). */
  started?: number;
  unrecorded?: number;
}

/** `backtestWorkflow`: one backtest job (`backtests`); its definitions, range and cursor are read from its row. */
export interface BacktestInput {
  operatorId: string;
  backtestId: string;
  /** Pages replayed by earlier runs of the job (it continues as new every so many). */
  pages?: number;
}

/** How far a run is: nodes finished (completed, failed or skipped, the trigger included) of all it can reach. */
export interface AutomationProgress {
  progress: number;
  total: number;
  message?: string;
}

/** How a run ended, as the end step stores it (`finishRun`): the run's status, output, every node and the Actions it used. */
export interface FinishRunInput {
  operatorId: string;
  runId: string;
  status: 'completed' | 'failed' | 'cancelled';
  output: unknown;
  nodes: NodeResult[];
  error: RunError | null;
  executed: { actions: number; aiActions: number };
}

export type AutomationRunResult =
  /** The automation does not exist for this operator, is inactive for an automatic source, or has no matching trigger. */
  | { kind: 'ignored'; reason: string }
  /** This Temporal workflow id already recorded a run (a repeated start). */
  | { kind: 'duplicate'; runId: string }
  /**
   * Refused before any node, or ran to its end: the run's id only — the record, with every node's output, is read from
   * PostgreSQL (`findRunRecord`).
   */
  | { kind: 'rejected' | 'finished'; runId: string }
  /**
   * Ended within the wait of the caller that began it (`callerWaitsMs`): the outcome, for the caller to store — or the
   * run watchdog, should the caller not (worker/runWatchdog.ts). Every node's output travels in it, as it did in the
   * nodes' own activity results; the payload codec stores a large one as a claim (docs/temporal-codec.md).
   */
  | { kind: 'ended'; runId: string; outcome: FinishRunInput };

/** One gateway call in the canonical format (spec 4.3); `action.gateway` of automations sends the same. */
export interface GatewayCallInput {
  operatorId: string;
  connectionId: string;
  /** `entity.action`, e.g. `player.verify`. */
  operation: string;
  /** Canonical params, translated through the connector's schemaMap before sending. */
  params?: Record<string, unknown>;
  /**
   * Names the call, and is sent to the provider as `Idempotency-Key`: `gwc_…` for `POST /gateway`, `<runId>:<nodeId>` for
   * an automation's `action.gateway` — the same on every attempt of the call.
   */
  callId: string;
  /**
   * `api` (`POST /gateway`): a POST or PATCH is recorded in `gateway_calls` and sent at most once per call id, and an
   * answer too large for Temporal is handed over through PostgreSQL. `run`: an automation's action, whose answer feeds
   * the run (its size is the payload codec's to bound).
   */
  caller: 'api' | 'run';
  /** `api` calls: after this instant (epoch ms) the call is not sent any more — its caller stops waiting soon after. */
  sendBy?: number;
}

/** Per-call limits chosen by the caller (from its configuration); workflows cannot read the environment. */
export interface GatewayLimits {
  timeoutMs: number;
  maxAttempts: number;
}

export type GatewayCallRequest = GatewayCallInput & {
  limits?: GatewayLimits;
  /** A lane accepts the call only until this instant (epoch ms); its caller may then safely try another lane. */
  acceptBy?: number;
};

/** The outcome of a call that reached the provider (or tried to): 2xx is `ok`, anything else a provider error. */
export type GatewayCallResult = (
  | { ok: true; status: number; data: unknown; providerLatencyMs: number; attempts: number }
  | { ok: false; status: number | null; data: unknown; message: string; providerLatencyMs: number; attempts: number }
) & {
  /** `api` calls whose answer was too large for Temporal: `data` is null here and the answer waits in `gateway_calls`. */
  answerStored?: true;
  /** The call id was sent before (a retry with the same Idempotency-Key): this is that send's stored outcome. */
  replayed?: true;
};

/** `gatewayLaneWorkflow`: serves one operator's synchronous gateway calls as Updates. */
export interface GatewayLaneInput {
  operatorId: string;
  /** Calls a run serves before it continues as new: `LANE_CALLS_PER_RUN` from every starter; absent in lanes started before, which serve 500. */
  callsPerRun?: number;
}

/** `batchIngestWorkflow`: one batch job, whose items are stored with the job row. */
export interface BatchIngestInput {
  operatorId: string;
  jobId: string;
  kind: BatchKind;
  totalItems: number;
  chunkSize: number;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export type EmailDelivery = { delivery: 'smtp'; messageId: string } | { delivery: 'file'; file: string };

/** `sendInviteEmailWorkflow`: the token travels only sealed with the keyring, never in clear. */
export interface InviteEmailInput {
  operatorId: string;
  inviteId: string;
  sealedToken: string;
  appUrl: string;
}

export type InviteEmailResult = EmailDelivery | { delivery: 'skipped'; reason: 'invite_no_longer_pending' | 'token_superseded' };

/** `diagnosticsWorkflow`: proves client → server → worker → activity → PostgreSQL. */
export interface DiagnosticsInput {
  message: string;
}

export interface DiagnosticsResult {
  echo: string;
  databaseTime: string;
  workflowTime: string;
}
