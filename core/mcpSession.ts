import { secretToken } from './ids';
import { isPlainObject } from './mcpJsonRpc';
import { LEGACY_TASKS_REVISION } from './mcpRevision';

const PLAIN = 'mcps';
/** The prefix of a session whose client declared form elicitation at `initialize`. */
const ELICITING = 'mcpse';

/**
 * The `Mcp-Session-Id` an `initialize` answers with. Sessions are not stored (any instance answers any request), so
 * the one client capability the server acts on later — form elicitation, to ask a 2025-11-25 client for a task's
 * input — is carried in the id the server issued. A client that fakes it only gets forms it cannot show.
 *
 * @example newSessionId({ protocolVersion: '2025-11-25', capabilities: { elicitation: {} } }) // 'mcpse_…'
 */
export function newSessionId(initializeParams: Record<string, unknown>): string {
  const capabilities = isPlainObject(initializeParams.capabilities) ? initializeParams.capabilities : {};
  const elicitation = capabilities.elicitation;
  // 2025-11-25: an empty `elicitation` object means form mode, as before modes existed.
  const forms = isPlainObject(elicitation) && (Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form));
  return secretToken(initializeParams.protocolVersion === LEGACY_TASKS_REVISION && forms ? ELICITING : PLAIN);
}

/** Whether the session's client said at `initialize` that it shows forms (`elicitation/create`). */
export const sessionElicits = (sessionId: string | undefined): boolean => sessionId?.startsWith(`${ELICITING}_`) ?? false;
