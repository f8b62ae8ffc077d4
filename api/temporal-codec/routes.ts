import Router from '@koa/router';
import type { Middleware } from 'koa';
import { KeyringPayloadCodec } from '../../temporal/payloadCodec';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { inputOf, validate } from '../middleware/validate';
import { clearCodecCookie, codecReadersOf, requireCodecReader, setCodecCookie } from './access';
import { TEMPORAL_CODEC_PREFIX } from './cors';
import './openapi';
import { CodecBody, fromJson, toJson } from './payloads';

/** The protocol names the namespace in `X-Namespace`; without it (the CLI's `{namespace}`-less endpoint) it is the platform's. */
function namespaceIs(namespace: string): Middleware {
  return async (ctx, next) => {
    const asked = ctx.get('x-namespace');
    if (asked && asked !== namespace) {
      throw new AppError(400, 'VALIDATION_FAILED', `Invalid input: X-Namespace: must be "${namespace}"`, { details: [{ field: 'X-Namespace', message: `must be "${namespace}"` }] });
    }
    await next();
  };
}

/**
 * Temporal's codec-server protocol for the Web UI and CLI (`POST /temporal-codec/decode` and `/encode`, body
 * `{ "payloads": [...] }` in proto3 JSON, `X-Namespace`), with the platform's own payload codec, for an Owner
 * of an organisation listed in `TEMPORAL_CODEC_OPERATORS`. `POST /temporal-codec/session` puts the Owner's
 * access token in an HttpOnly cookie for the UI's credentialed requests; `DELETE` removes it. See docs/temporal-codec.md.
 */
export function createTemporalCodecRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: TEMPORAL_CODEC_PREFIX });
  const namespace = deps.config.TEMPORAL_NAMESPACE;
  const codec = new KeyringPayloadCodec(deps.keyring, namespace);
  const readers = codecReadersOf(deps.config);
  const reader = requireCodecReader(deps, readers, { cookie: true });
  const body = validate({ body: CodecBody });
  const inNamespace = namespaceIs(namespace);

  router.post('/decode', reader, inNamespace, body, async (ctx) => {
    const { payloads } = inputOf(ctx, { body: CodecBody }).body;
    const decoded = await Promise.all(
      payloads.map(async (payload, index) => {
        try {
          return toJson((await codec.decode([fromJson(payload)]))[0]!);
        } catch {
          const field = `payloads.${index}`;
          throw new AppError(422, 'PAYLOAD_UNREADABLE', `${field} cannot be decrypted: unknown key or altered data`, { details: [{ field, message: 'unknown key or altered data' }] });
        }
      }),
    );
    const auth = ctx.state.auth as { operatorId: string; userId: string };
    ctx.state.log?.info({ operatorId: auth.operatorId, userId: auth.userId, payloads: decoded.length }, 'temporal payloads decoded');
    ctx.body = { payloads: decoded };
  });

  router.post('/encode', reader, inNamespace, body, async (ctx) => {
    const { payloads } = inputOf(ctx, { body: CodecBody }).body;
    ctx.body = { payloads: (await codec.encode(payloads.map(fromJson))).map(toJson) };
  });

  router.post('/session', requireCodecReader(deps, readers, { cookie: false }), (ctx) => {
    const expiresAt = setCodecCookie(ctx);
    ctx.body = { success: true, data: { expiresAt: expiresAt.toISOString() } };
  });

  router.delete('/session', (ctx) => {
    clearCodecCookie(ctx);
    ctx.status = 204;
  });
  return router;
}
