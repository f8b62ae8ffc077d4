import type { Actor } from '../core/audit';
import type { Principal } from './middleware/authenticate';

/**
 * Who acts through this request, as versions and the audit trail record it: the signed-in member (whether the request
 * carried the session's access token or its dashboard credential) or the API key.
 */
export const actorOf = (principal: Principal): Actor => (principal.kind === 'session' ? `member:${principal.memberId}` : `key:${principal.keyId}`);
