import type { Socket } from 'node:net';
import type { Context, Middleware } from 'koa';
import { API_KEY_PREFIX, isWellFormedApiKey, sha256Hex } from '../../core/apiKeyToken';
import { DASHBOARD_CREDENTIAL_PREFIX, verifyDashboardCredential } from '../../core/dashboardCredential';
import { looksLikeJwt, verifyAccessToken } from '../../core/sessionToken';
import { TokenBuckets } from '../../core/tokenBuckets';
import { findApiKeyByHash } from '../../db/queries/apiKeys';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { bearerToken } from './authenticate';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whose budget a body is counted against, known before it is read: the organisation its credential names (an API key
 * through the same cache as authentication, a session or dashboard credential by its verified signature — a revoked
 * one still counts against its own organisation), else the client address (no credential, an unknown one, the
 * webhook receiver, an OAuth token). Nothing here grants access: the area's own authentication still decides.
 */
export async function bodySubjectOf(deps: Pick<AppDeps, 'db' | 'caches' | 'jwtSecret'>, ctx: Context): Promise<string> {
  const byAddress = `address:${ctx.ip}`;
  const token = bearerToken(ctx.get('authorization') || undefined);
  if (token === null || token === 'malformed') return byAddress;
  if (token.startsWith(API_KEY_PREFIX)) {
    if (!isWellFormedApiKey(token)) return byAddress;
    const hash = sha256Hex(token);
    // The database out of reach: counted by address, and the area answers the outage in its own form (MCP's names the request).
    const key = await deps.caches.apiKeys.get(hash, () => findApiKeyByHash(deps.db, hash)).catch(() => undefined);
    return key ? `operator:${key.operator_id}` : byAddress;
  }
  if (token.startsWith(DASHBOARD_CREDENTIAL_PREFIX)) {
    const claims = await verifyDashboardCredential(token, deps.jwtSecret);
    return claims ? `operator:${claims.operatorId}` : byAddress;
  }
  if (!looksLikeJwt(token)) return byAddress;
  const claims = await verifyAccessToken(token, deps.jwtSecret);
  return claims ? `operator:${claims.operatorId}` : byAddress;
}

/**
 * How long the connection of a refused body stays open for its client to read the 429, unless the client closes it
 * first. It costs a socket and its unread buffer, nothing read; 2 s reset a client starved of CPU (the byte flood at
 * the lowest priority on a busy CI machine) before it had read an answer already sent.
 */
export const REFUSED_BODY_LINGER_MS = 10_000;

/**
 * Connections of refused bodies one budget keeps lingering at once; past them the oldest is closed. Each costs a socket
 * and its unread buffer (about 64 KiB), so a client refused faster than {@link REFUSED_BODY_LINGER_MS} lets its
 * connections go holds about 2 MiB per organisation or address, not one connection per refusal.
 */
export const LINGERING_MAX = 32;

/** The lingering connections of refused bodies, per budget subject, oldest first. */
class Lingering {
  private readonly bySubject = new Map<string, Set<Socket>>();

  /**
   * Keeps `socket` open for {@link REFUSED_BODY_LINGER_MS}, its reading stopped once a socket buffer's worth has
   * arrived (`read(0)` marks the request as being consumed, and nothing consumes it); the subject's oldest lingering
   * connection is closed when it already holds {@link LINGERING_MAX}.
   */
  hold(subject: string, ctx: Context): void {
    const socket = ctx.req.socket;
    ctx.req.read(0);
    const sockets = this.bySubject.get(subject) ?? new Set<Socket>();
    this.bySubject.set(subject, sockets);
    const oldest = sockets.size >= LINGERING_MAX ? sockets.values().next().value : undefined;
    if (oldest) {
      // Out of the set now: its 'close' comes later, and the next refusal must not pick it again.
      sockets.delete(oldest);
      oldest.destroy();
    }
    sockets.add(socket);
    const linger = setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS);
    linger.unref();
    socket.once('close', () => {
      clearTimeout(linger);
      sockets.delete(socket);
      if (sockets.size === 0 && this.bySubject.get(subject) === sockets) this.bySubject.delete(subject);
    });
  }
}

/**
 * 429 for a body left unread. Node would read and drop the rest of the body once answered (as fast as the client
 * sends it); instead the connection lingers unread ({@link Lingering}), so the client's upload stalls while it reads its
 * answer, and it is closed {@link REFUSED_BODY_LINGER_MS} later if the client has not closed it. Closing at once would
 * reset most clients before they read the 429.
 */
function refuse(ctx: Context, lingering: Lingering, subject: string, waitMs: number): AppError {
  if (!ctx.req.complete) lingering.hold(subject, ctx);
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(429, 'RATE_LIMITED', `Rate limit exceeded for request bytes; retry after ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * How long a body over its budget is held, unread, before it is answered: at most 1 s, less when the budget holds it
 * sooner. A client that loops without honouring `Retry-After` (the four ~10 MB POST loops) otherwise came
 * back at once, about 170 times a second, and connecting, refusing and closing at that pace cost the API and the
 * loopback about as much as a core: the bystander's GETs slowed 2.7× at their median, with no body accepted.
 */
export const OVER_BUDGET_HOLD_MS = 1_000;
/**
 * Bodies of one budget held at once; past them a body is refused at once. Each held one costs a connection and a
 * socket buffer's worth of its bytes (about 64 KiB), so 16 hold about 1 MiB per organisation.
 */
export const OVER_BUDGET_HELD_MAX = 16;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Request body bytes as a budget: a token bucket per organisation (or client address, {@link bodySubjectOf}) of
 * `BODY_BYTES_PER_SECOND` with a burst of `BODY_BYTES_BURST`, in each API instance, counted before a byte is read or
 * parsed. A body with a `Content-Length` takes its length up front; a chunked one takes the largest body's worth
 * (`BODY_LIMIT_BYTES`) up front and gives back what it did not use once read, so leaving out the length gains
 * nothing. A body over the budget is held unread for up to {@link OVER_BUDGET_HOLD_MS} (its upload stalls); taken
 * then if the budget has come to hold it, else 429 `RATE_LIMITED` with `Retry-After` (the seconds until the bucket
 * holds the body), the body never read into memory nor parsed ({@link refuse}). A body over `BODY_LIMIT_BYTES` is
 * left to the body parser's 413.
 *
 * @example app.use(bodyBudget(deps, new TokenBuckets(2 * 1024 * 1024, 20 * 1024 * 1024)))
 */
export function bodyBudget(deps: Pick<AppDeps, 'db' | 'caches' | 'jwtSecret' | 'config'>, buckets: TokenBuckets, lingering = new Lingering()): Middleware {
  const held = new Map<string, number>();
  /** Holds an over-budget body while the subject has fewer than OVER_BUDGET_HELD_MAX held; true once its bytes are taken. */
  const holdFor = async (ctx: Context, subject: string, bytes: number): Promise<boolean> => {
    const holding = held.get(subject) ?? 0;
    if (holding >= OVER_BUDGET_HELD_MAX) return false;
    held.set(subject, holding + 1);
    try {
      // A timer may fire early by as long as the event loop's turn had run when it was set (libuv's cached clock): on a
      // busy loop a body the budget held within the hold was refused 429. So it waits again for what is still missing.
      const until = performance.now() + OVER_BUDGET_HOLD_MS;
      let wait: number;
      while ((wait = buckets.waitMs(subject, bytes)) > 0 && performance.now() < until) await sleep(Math.min(wait, until - performance.now()));
    } finally {
      const left = (held.get(subject) ?? 1) - 1;
      if (left === 0) held.delete(subject);
      else held.set(subject, left);
    }
    // A client gone meanwhile takes nothing from its budget.
    return !ctx.req.socket.destroyed && buckets.take(subject, bytes);
  };
  return async (ctx, next) => {
    const length = ctx.request.length;
    const chunked = !length && Boolean(ctx.get('transfer-encoding'));
    if (!METHODS_WITH_BODY.has(ctx.method) || (!length && !chunked) || (length ?? 0) > deps.config.BODY_LIMIT_BYTES) return next();
    const subject = await bodySubjectOf(deps, ctx);
    const reserved = length ?? deps.config.BODY_LIMIT_BYTES;
    if (!buckets.take(subject, reserved) && !(await holdFor(ctx, subject, reserved))) throw refuse(ctx, lingering, subject, buckets.waitMs(subject, reserved));
    if (!chunked) return next();
    try {
      await next();
    } finally {
      // What a chunked body did not use of the largest body's worth goes back.
      buckets.spend(subject, (ctx.request.rawBody?.length ?? reserved) - reserved);
    }
  };
}

/** The buckets of {@link bodyBudget}, sized by the configuration. */
export const bodyBuckets = (config: AppDeps['config']) => new TokenBuckets(config.BODY_BYTES_PER_SECOND, config.BODY_BYTES_BURST);
