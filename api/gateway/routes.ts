import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, type AuthFailure } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import { describeIssues, defaultValidationError } from '../middleware/validate';
import { respondWithGatewayCall } from './execute';
import { GatewayBody } from './schema';

/** Spec 5 rule 3: the gateway speaks AUTH_MISSING / AUTH_INVALID / AUTH_REVOKED; a session token is not a key. */
function gatewayAuthError(reason: AuthFailure): AppError {
  if (reason === 'missing') return new AppError(401, 'AUTH_MISSING', 'Authorization header is required');
  if (reason === 'revoked') return new AppError(401, 'AUTH_REVOKED', 'API key has been revoked');
  return new AppError(401, 'AUTH_INVALID', 'Invalid API key');
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** `MISSING_FIELDS` when connectionId or operation is absent or blank (spec 7.3), `VALIDATION_FAILED` for other bad input. */
function gatewayInput(body: unknown) {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const missing = ['connectionId', 'operation'].filter((field) => blank(fields[field]));
  if (missing.length > 0) {
    throw new AppError(400, 'MISSING_FIELDS', `Missing required fields: ${missing.join(', ')}`, {
      details: missing.map((field) => ({ field, message: 'is required' })),
    });
  }
  const parsed = GatewayBody.safeParse(body);
  if (!parsed.success) throw defaultValidationError(describeIssues(parsed.error, body));
  return { connectionId: parsed.data.connectionId, operation: parsed.data.operation.trim(), params: parsed.data.params ?? undefined };
}

async function execute(deps: AppDeps, ctx: Context): Promise<void> {
  const input = gatewayInput(ctx.request.body);
  await respondWithGatewayCall(deps, ctx, { operatorId: principalOf(ctx).operatorId, ...input });
}

/** `POST /gateway` (spec 4.3): API key only, rate class `gateway:execute`; other methods are 405 from the root router. */
export function createGatewayRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/gateway' });
  const auth = authenticate(deps, { accept: ['apiKey'], onFailure: gatewayAuthError });
  router.post('/', auth, rateLimit(deps.rateLimits, 'gateway:execute'), (ctx) => execute(deps, ctx));
  return router;
}
