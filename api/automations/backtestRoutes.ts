import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import { cancelBacktestHandler, getBacktestHandler, startBacktestHandler } from './backtests';
import { BacktestRecord } from './backtestSchema';
import * as examples from './examples';

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };
const writes = { ...auth, 403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin') };
const notFound = jsonContent(CodedError, "BACKTEST_NOT_FOUND (also for another operator's backtest)");

/**
 * Declares backtests on the automations area (`/workflows-api`, docs/compliance.md "Backtest"): starting and
 * cancelling one need the `manager` guard like every write (a backtest spends the operator's sandbox time), anyone of
 * the operator reads one.
 */
export function declareBacktests(area: Pick<Area<AppDeps, 'manager', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'post',
    path: '/workflows/:id/backtests',
    summary: "Backtest a version or a draft over the operator's stored events, with every side effect stubbed",
    description:
      'Replays the stored events of [from, to) (event triggers only, in recorded order) through the definition — a saved `version`, a draft `definition`, or the current version — and through the current version, evaluating conditions for real and performing no action. The result: runs, per-step counts, actions by type, quota it would consume, players affected, and the diff against the current version. One running backtest per operator; at most 100,000 events.',
    guards: ['manager'],
    request: { body: { description: 'The period and what to backtest', example: examples.backtestBody } },
    responses: {
      202: ok(BacktestRecord, 'Created and running: poll GET /backtests/{backtestId}', examples.backtestStarted),
      400: jsonContent(
        CodedError,
        'VALIDATION_FAILED: `details` names the field (`to` for an empty range or one over 100,000 events, `definition…`, `version`, `sampleOutputs.<id>`)',
      ),
      ...writes,
      404: jsonContent(CodedError, "WORKFLOW_NOT_FOUND (also for another operator's workflow) or VERSION_NOT_FOUND"),
      409: jsonContent(CodedError, 'BACKTEST_ALREADY_RUNNING: the operator has a running backtest (`details.backtestId`)'),
    },
    ...startBacktestHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/backtests/:backtestId',
    summary: "A backtest's progress and, once completed, its result",
    responses: { 200: ok(BacktestRecord, 'The backtest', examples.backtest), 400: jsonContent(CodedError, 'VALIDATION_FAILED'), ...auth, 404: notFound },
    ...getBacktestHandler,
  });
  area.endpoint({
    method: 'post',
    path: '/backtests/:backtestId/cancel',
    summary: 'Cancel a running backtest: it replays nothing more and keeps no result',
    guards: ['manager'],
    responses: {
      202: ok(BacktestRecord, 'Cancelled', examples.backtestCancelled),
      400: jsonContent(CodedError, 'VALIDATION_FAILED'),
      ...writes,
      404: notFound,
      409: jsonContent(CodedError, 'BACKTEST_NOT_RUNNING: the backtest has already ended'),
    },
    ...cancelBacktestHandler,
  });
}
