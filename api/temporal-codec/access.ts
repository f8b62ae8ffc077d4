import { decodeJwt } from 'jose';
import type { Context, Middleware } from 'koa';
import { ConfigError, type Config } from '../../core/config';
import type { AppDeps } from '../deps';
import { AppError, AuthError } from '../errors';
import { resolvePrincipal, type SessionPrincipal } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT } from '../middleware/requireManager';
import { TEMPORAL_CODEC_PREFIX } from './cors';

/** The cookie that carries an Owner's access token to the codec endpoint from the Temporal UI (HttpOnly, SameSite=Strict, this path only). */
export const CODEC_COOKIE = 'temporal_codec_session';

/** Who may read Temporal payloads: `*` (any Owner, development only), a set of operator ids, or nobody. */
export type CodecReaders = '*' | ReadonlySet<string>;

/**
 * `TEMPORAL_CODEC_OPERATORS`: the namespace holds every tenant's runs and anyone can sign up and own an
 * organisation, so being an Owner is not enough — the Owner's organisation must be listed (the platform's
 * own staff organisation). `*` lets any Owner decode and is refused in production.
 */
export function codecReadersOf(config: Pick<Config, 'TEMPORAL_CODEC_OPERATORS' | 'NODE_ENV'>): CodecReaders {
  const raw = config.TEMPORAL_CODEC_OPERATORS?.trim();
  if (raw === '*') {
    if (config.NODE_ENV === 'production')
      throw new ConfigError(['TEMPORAL_CODEC_OPERATORS: "*" (any Owner) is refused when NODE_ENV=production; list operator ids']);
    return '*';
  }
  return new Set(
    (raw ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  );
}

/** The caller's token: the Authorization header (Temporal CLI `--codec-auth`), else the codec cookie (Temporal UI). */
function credentialOf(ctx: Context, cookieAllowed: boolean): string | undefined {
  const header = ctx.get('authorization');
  if (header) return header;
  const cookie = cookieAllowed ? ctx.cookies.get(CODEC_COOKIE) : undefined;
  return cookie ? `Bearer ${cookie}` : undefined;
}

/**
 * Lets through the session of an Owner whose organisation may read Temporal payloads and puts it on
 * `ctx.state.auth`: no or a bad credential is 401, anyone else 403. `cookie: false` for the route that
 * hands out the cookie, which takes the header only.
 */
export function requireCodecReader(deps: AppDeps, readers: CodecReaders, options: { cookie: boolean }): Middleware {
  return async (ctx, next) => {
    let principal: SessionPrincipal;
    try {
      const resolved = await resolvePrincipal(deps, credentialOf(ctx, options.cookie), ['session']);
      if (resolved.kind !== 'session') throw new AuthError('session_required');
      principal = resolved;
    } catch (error) {
      if (error instanceof AuthError) {
        const message =
          error.reason === 'missing'
            ? `An Owner's session is required: Authorization: Bearer <access token>${options.cookie ? ', or the codec session cookie' : ''}`
            : AUTH_FAILURE_TEXT[error.reason];
        throw new AppError(401, 'UNAUTHORIZED', message);
      }
      throw error;
    }
    if (principal.role !== 'owner') throw new AppError(403, 'FORBIDDEN', 'Only the Owner can read Temporal payloads');
    if (readers !== '*' && !readers.has(principal.operatorId)) {
      throw new AppError(403, 'FORBIDDEN', "Your organisation may not read Temporal payloads (it is not in the platform's TEMPORAL_CODEC_OPERATORS)");
    }
    ctx.state.auth = principal;
    await next();
  };
}

/** Sets the codec cookie to the caller's access token, for as long as the token lives; returns when it expires. */
export function setCodecCookie(ctx: Context): Date {
  const token = /^Bearer\s+(\S+)/i.exec(ctx.get('authorization'))?.[1] ?? '';
  const expiresAt = new Date((decodeJwt(token).exp ?? 0) * 1000);
  ctx.cookies.set(CODEC_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: TEMPORAL_CODEC_PREFIX,
    expires: expiresAt,
    secure: ctx.secure,
    overwrite: true,
  });
  return expiresAt;
}

export function clearCodecCookie(ctx: Context): void {
  ctx.cookies.set(CODEC_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: TEMPORAL_CODEC_PREFIX,
    expires: new Date(0),
    secure: ctx.secure,
    overwrite: true,
  });
}
