import type { Context } from 'koa';
import type { Actor } from '../core/audit';
import { principalOf, type Principal } from './middleware/authenticate';

/**
 * Who acts through this request, as versions and the audit trail record it: the signed-in member (whether the request
 * carried the session's access token or its dashboard credential) or the API key.
 */
export function actorOf(from: Principal | Context): Actor {
  const principal: Principal = 'kind' in from ? (from as Principal) : principalOf(from);
  return principal.kind === 'session' ? `member:${principal.memberId}` : `key:${principal.keyId}`;
}
