import type { Context, Middleware } from 'koa';
import type { PayloadCodec } from '@temporalio/common';
import { AppError } from '../errors';
import { operatorOf, principalOf, type SessionPrincipal } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { clearCodecCookie, setCodecCookie } from './access';
import { type CodecBody, fromJson, toJson } from './payloads';

/** What the codec routes share, built once: the platform's payload codec for its namespace (sealing and stored payloads). */
export interface CodecSetup {
  codec: PayloadCodec;
  namespace: string;
}

/** The protocol names the namespace in `X-Namespace`; without it (the CLI's `{namespace}`-less endpoint) it is the platform's. */
export function namespaceIs(namespace: string): Middleware {
  return async (ctx, next) => {
    const asked = ctx.get('x-namespace');
    if (asked && asked !== namespace) {
      throw new AppError(400, 'VALIDATION_FAILED', `Invalid input: X-Namespace: must be "${namespace}"`, {
        details: [{ field: 'X-Namespace', message: `must be "${namespace}"` }],
      });
    }
    await next();
  };
}

/** `POST /temporal-codec/decode`: every payload opened, or 422 naming the first that cannot be. */
export async function decodeHandler({ codec }: CodecSetup, ctx: Context, { body: { payloads } }: InputOf<{ body: typeof CodecBody }>): Promise<void> {
  const decoded = await Promise.all(
    payloads.map(async (payload, index) => {
      try {
        return toJson((await codec.decode([fromJson(payload)]))[0]!);
      } catch {
        const field = `payloads.${index}`;
        throw new AppError(422, 'PAYLOAD_UNREADABLE', `${field} cannot be decrypted: unknown key, altered data or a stored payload no longer kept`, {
          details: [{ field, message: 'unknown key, altered data or a stored payload no longer kept' }],
        });
      }
    }),
  );
  const { userId } = principalOf(ctx) as SessionPrincipal;
  ctx.state.log?.info({ operatorId: operatorOf(ctx), userId, payloads: decoded.length }, 'temporal payloads decoded');
  ctx.body = { payloads: decoded };
}

/** `POST /temporal-codec/encode`: every payload sealed with the current key. */
export async function encodeHandler({ codec }: CodecSetup, ctx: Context, { body: { payloads } }: InputOf<{ body: typeof CodecBody }>): Promise<void> {
  ctx.body = { payloads: (await codec.encode(payloads.map(fromJson))).map(toJson) };
}

export function openSessionHandler(_setup: CodecSetup, ctx: Context): void {
  const expiresAt = setCodecCookie(ctx);
  ctx.body = { success: true, data: { expiresAt: expiresAt.toISOString() } };
}

export function closeSessionHandler(_setup: CodecSetup, ctx: Context): void {
  clearCodecCookie(ctx);
  ctx.status = 204;
}
