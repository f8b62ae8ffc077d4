import { AppError } from '../errors';
import { clearCodecCookie, setCodecCookie } from './access';
import { CodecBody, fromJson, toJson } from './payloads';
import { codecServer } from './area';

/** `POST /temporal-codec/decode`: every payload opened, or 422 naming the first that cannot be. */
export const decodeHandler = codecServer.handler(
  { input: { body: CodecBody } },
  async ({
    deps: { codec },
    ctx,
    input: {
      body: { payloads },
    },
    principal,
  }) => {
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
    ctx.state.log?.info({ operatorId: principal.operatorId, userId: principal.userId, payloads: decoded.length }, 'temporal payloads decoded');
    ctx.body = { payloads: decoded };
  },
);

/** `POST /temporal-codec/encode`: every payload sealed with the current key. */
export const encodeHandler = codecServer.handler(
  { input: { body: CodecBody } },
  async ({
    deps: { codec },
    ctx,
    input: {
      body: { payloads },
    },
  }) => {
    ctx.body = { payloads: (await codec.encode(payloads.map(fromJson))).map(toJson) };
  },
);

export const openSessionHandler = codecServer.handler({}, ({ ctx }) => {
  const expiresAt = setCodecCookie(ctx);
  ctx.body = { success: true, data: { expiresAt: expiresAt.toISOString() } };
});

export const closeSessionHandler = codecServer.handler({}, ({ ctx }) => {
  clearCodecCookie(ctx);
  ctx.status = 204;
});
