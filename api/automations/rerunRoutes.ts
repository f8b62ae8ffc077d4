import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import * as examples from './examples';
import { cancelReplayHandler, getReplayHandler, previewReplayHandler, rerunHandler, startReplayHandler } from './reruns';
import { ReplayPreviewRecord, ReplayRecord, RerunRecord } from './rerunSchema';

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };
const writes = { ...auth, 403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin') };
const replayNotFound = jsonContent(CodedError, "REPLAY_NOT_FOUND (also for another operator's replay)");

/**
 * Declares rerun and bulk replay on the automations area (`/workflows-api`, docs/workflows.md "Rerun and replay"):
 * both start runs, so they need the `manager` guard like every write; anyone of the operator reads a replay's progress.
 */
export function declareReruns(area: Pick<Area<AppDeps, 'manager' | 'runs', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'post',
    path: '/runs/:runId/rerun',
    summary: 'Rerun a finished run from one of its steps, with the same trigger payload',
    description:
      "A new run (`rerunOf` names the original) with the original's trigger payload: steps that are neither `fromNodeId` nor reachable from it keep the original's completed results (`reused: true`, not run, not counted against the quota); `fromNodeId` and every step reachable from it run again. Rate class runs:start.",
    guards: ['manager', 'runs'],
    request: { body: { description: 'The step to rerun from and the version to run', example: examples.rerunBody } },
    responses: {
      202: ok(RerunRecord, 'Started: poll GET /runs/{runId} with the new id', examples.rerunStarted),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names `fromNodeId` (not a non-trigger step of that version) or `version`'),
      ...writes,
      404: jsonContent(CodedError, "RUN_NOT_FOUND (also for another operator's run), or WORKFLOW_NOT_FOUND when its workflow was deleted"),
      409: jsonContent(CodedError, 'RUN_STILL_RUNNING: the run has not ended yet'),
      429: jsonContent(CodedError, 'RATE_LIMITED (runs:start), with Retry-After'),
    },
    ...rerunHandler,
  });
  area.endpoint({
    method: 'post',
    path: '/workflows/:id/replays',
    summary: 'Rerun every failed run of a time range, as a tracked job',
    description:
      'Reruns, each from its failed step, every trigger event of the workflow with a failed run started in [from, to), once: its latest attempt (the original or its latest rerun, by hand or by an earlier replay), only when that attempt failed and had ended when the replay was created; an event whose latest rerun succeeded is not rerun. At most ratePerSecond a second; each is rerun once however the job is retried. One running replay per workflow; at most 10,000 runs per replay.',
    guards: ['manager'],
    request: { body: { description: 'The range and how to rerun', example: examples.replayBody } },
    responses: {
      202: ok(ReplayRecord, 'Created and running: poll GET /replays/{replayId}', examples.replayStarted),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names the field (`to` for an empty range or one holding more than 10,000 failed runs)'),
      ...writes,
      404: jsonContent(CodedError, "WORKFLOW_NOT_FOUND (also for another operator's workflow)"),
      409: jsonContent(CodedError, 'REPLAY_ALREADY_RUNNING: the workflow has a running replay (`details.replayId`)'),
    },
    ...startReplayHandler,
  });
  area.endpoint({
    method: 'post',
    path: '/workflows/:id/replays/preview',
    summary: 'What a replay of a time range would rerun, without starting it',
    description:
      'The count a replay created now would rerun (the same selection), by error code, and the oldest 5 with their error codes; creates nothing. Other body fields (version, ratePerSecond) are ignored, so the replay body can be sent as is.',
    request: { body: { description: 'The range', example: examples.replayBody } },
    responses: {
      200: ok(ReplayPreviewRecord, 'The preview', examples.replayPreview),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names the field (`to` for an empty range)'),
      ...auth,
      404: jsonContent(CodedError, "WORKFLOW_NOT_FOUND (also for another operator's workflow)"),
    },
    ...previewReplayHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/replays/:replayId',
    summary: "A replay job's progress",
    responses: { 200: ok(ReplayRecord, 'The replay', examples.replay), 400: jsonContent(CodedError, 'VALIDATION_FAILED'), ...auth, 404: replayNotFound },
    ...getReplayHandler,
  });
  area.endpoint({
    method: 'post',
    path: '/replays/:replayId/cancel',
    summary: 'Cancel a running replay: no further rerun starts; those started run to their end',
    guards: ['manager'],
    responses: {
      202: ok(ReplayRecord, 'Cancelled', examples.replayCancelled),
      400: jsonContent(CodedError, 'VALIDATION_FAILED'),
      ...writes,
      404: replayNotFound,
      409: jsonContent(CodedError, 'REPLAY_NOT_RUNNING: the replay has already ended'),
    },
    ...cancelReplayHandler,
  });
}
