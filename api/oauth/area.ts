import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { authenticate, sessionPrincipalOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import type { FieldProblem } from '../middleware/validate';

const invalidRequest = (problems: { problems: FieldProblem[] }) =>
  new AppError(400, 'invalid_request', problems.problems.map((p) => `${p.field}: ${p.message}`).join('; '));

/** The well-known documents hosts discover the authorization server by (RFC 9728, RFC 8414, OpenID discovery). */
export const wellKnown = defineArea({
  prefix: '/.well-known',
  errorFormat: 'oauth',
  guards: (deps) => ({ limitByAddress: rateLimit(deps.rateLimits, 'oauth', (ctx) => ctx.ip) }),
});

/**
 * The OAuth 2.1 authorization server for MCP hosts (docs/mcp.md "Authorization (OAuth 2.1)"): authorize, token,
 * registration and revocation for hosts; the consent page's and the dashboard's endpoints for signed-in members.
 */
export const oauth = defineArea({
  prefix: '/oauth',
  errorFormat: 'oauth',
  inputError: invalidRequest,
  guards: (deps) => ({
    limitByAddress: rateLimit(deps.rateLimits, 'oauth', (ctx) => ctx.ip),
    limitRegistrations: rateLimit(deps.rateLimits, 'oauth:register', (ctx) => ctx.ip),
    member: authenticate(deps, { accept: ['session'], onFailure: () => new AppError(401, 'invalid_token', 'A signed-in member’s session token is required') }),
  }),
  principal: sessionPrincipalOf,
});
