import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok, page } from '../openapi/responses';
import * as examples from './examples';
import { AutomationRecord } from './schema';
import { VersionDiffRecord, VersionRecord, VersionSummary } from './versionSchema';
import { diffVersionsHandler, getVersionHandler, listVersionsHandler, rollbackHandler } from './versions';

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };
const invalid = jsonContent(CodedError, 'VALIDATION_FAILED (MISSING_FIELDS for an absent one): `details` names the field');
const notFound = jsonContent(CodedError, "WORKFLOW_NOT_FOUND, or VERSION_NOT_FOUND (also for another operator's workflow)");

/**
 * Declares a workflow's versions on the automations area (`/workflows-api`, docs/workflows.md "Versions"): every
 * version is stored once and never changes; anyone of the operator reads and compares them, a rollback (a new
 * version) needs the `manager` guard like every write.
 */
export function declareVersions(area: Pick<Area<AppDeps, 'manager', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'get',
    path: '/workflows/:id/versions',
    summary: "A workflow's versions, newest first",
    responses: { 200: page(VersionSummary, 'A page and the total count', examples.versionList), 400: invalid, ...auth, 404: notFound },
    ...listVersionsHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/workflows/:id/versions/:version',
    summary: 'One version of a workflow, its whole definition as saved',
    responses: { 200: ok(VersionRecord, 'The version', examples.version), 400: invalid, ...auth, 404: notFound },
    ...getVersionHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/workflows/:id/diff',
    summary: 'What changed between two versions: nodes, their params, edges and top-level fields',
    description:
      'Nodes are matched by id: added, removed, or changed with their type (when it changed) and every param path that differs, before and after (absent when the value is not there). Edges are matched by their ends and branch. `fields` lists every other top-level field that differs. `from` may be newer than `to`.',
    responses: { 200: ok(VersionDiffRecord, 'The difference', examples.versionDiff), 400: invalid, ...auth, 404: notFound },
    ...diffVersionsHandler,
  });
  area.endpoint({
    method: 'post',
    path: '/workflows/:id/versions/:version/rollback',
    summary: "Make a version's definition current again, as a new version",
    description:
      "An update with that version's definition: version + 1 (none when it is already the current definition), triggers follow (schedules, webhooks, the tool name). `active` stays as it is; webhook secrets are not versioned: a webhook step present now keeps its secret, one removed since comes back under its former URL, unless it was signed (409 VERSION_NOT_RESTORABLE).",
    guards: ['manager'],
    responses: {
      200: ok(AutomationRecord, 'The workflow, now at its new version', examples.rolledBack),
      400: invalid,
      ...auth,
      403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin'),
      404: notFound,
      409: jsonContent(CodedError, 'VERSION_NOT_RESTORABLE: a signed webhook step of the version was removed since, and its secret with it'),
    },
    ...rollbackHandler,
  });
}
