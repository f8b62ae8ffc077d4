import { secretToken } from './ids';
import { isPlainObject } from './mcpJsonRpc';
import { LEGACY_TASKS_REVISION, type Revision } from './mcpRevision';

/**
 * What the issued id says a 2025-11-25 client declared at `initialize`, as letters after `mcps`: `e` form elicitation,
 * `t` tasks. `mcps_` declares neither, as every id issued before the letters existed.
 */
const SESSION_ID_PATTERN = /^mcps([et]*)_/;

/**
 * The `Mcp-Session-Id` an `initialize` answers with. Sessions are not stored (any instance answers any request), so
 * the client capabilities the server acts on later are carried in the id it issued: form elicitation (to ask a
 * 2025-11-25 client for a task's input) and tasks (to list the tools it can only call as tasks). A client that fakes
 * them only gets forms it cannot show, or tools it cannot call.
 *
 * @example newSessionId({ protocolVersion: '2025-11-25', capabilities: { elicitation: {}, tasks: {} } }) // 'mcpset_…'
 */
export function newSessionId(initializeParams: Record<string, unknown>): string {
  const capabilities = isPlainObject(initializeParams.capabilities) ? initializeParams.capabilities : {};
  const elicitation = capabilities.elicitation;
  // 2025-11-25: an empty `elicitation` object means form mode, as before modes existed.
  const forms = isPlainObject(elicitation) && (Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form));
  const tasks = isPlainObject(capabilities.tasks);
  const revision = initializeParams.protocolVersion === LEGACY_TASKS_REVISION;
  return secretToken(`mcps${revision && forms ? 'e' : ''}${revision && tasks ? 't' : ''}`);
}

const declared = (sessionId: string | undefined, flag: 'e' | 't'): boolean =>
  (sessionId === undefined ? undefined : SESSION_ID_PATTERN.exec(sessionId))?.[1]?.includes(flag) ?? false;

/** Whether the session's client said at `initialize` that it shows forms (`elicitation/create`). */
export const sessionElicits = (sessionId: string | undefined): boolean => declared(sessionId, 'e');

/**
 * Whether a request's client may be shown a task-required tool: one that declared tasks — the 2026-07-28 extension in
 * the request, or `capabilities.tasks` at a 2025-11-25 `initialize` —, so none is shown a tool it cannot call. The
 * spec's revision (2025-06-18) has no tasks and lists every exposed workflow (spec 4.6): its call is held and
 * answers `RUN_STILL_RUNNING` naming the run once the wait is over.
 *
 * @example showsTaskTools({ version: '2026-07-28', modern: true, tasks: false }, undefined) // false
 */
export function showsTaskTools(revision: Revision, sessionId: string | undefined): boolean {
  if (revision.modern) return revision.tasks;
  return revision.version !== LEGACY_TASKS_REVISION || declared(sessionId, 't');
}
