import type { Middleware } from 'koa';
import type { PayloadCodec } from '@temporalio/common';
import { postgresPayloadStore } from '../../db/queries/temporalPayloads';
import { PlatformPayloadCodec } from '../../temporal/dataConverter';
import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { sessionPrincipalOf } from '../middleware/authenticate';
import { codecReadersOf, requireCodecReader } from './access';
import { TEMPORAL_CODEC_PREFIX } from './cors';

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

/**
 * Temporal's codec-server protocol for the Web UI and CLI (`POST /temporal-codec/decode` and `/encode`, body
 * `{ "payloads": [...] }` in proto3 JSON, `X-Namespace`), with the platform's own payload codec, for an Owner
 * of an organisation listed in `TEMPORAL_CODEC_OPERATORS`. `POST /temporal-codec/session` puts the Owner's
 * access token in an HttpOnly cookie for the UI's credentialed requests; `DELETE` removes it. See docs/temporal-codec.md.
 */
export const codecServer = defineArea({
  prefix: TEMPORAL_CODEC_PREFIX,
  setup: (deps): CodecSetup => ({
    namespace: deps.config.TEMPORAL_NAMESPACE,
    codec: new PlatformPayloadCodec(deps.keyring, deps.config.TEMPORAL_NAMESPACE, {
      store: postgresPayloadStore(deps.db),
      maxBytes: deps.config.TEMPORAL_PAYLOAD_MAX_BYTES,
    }),
  }),
  guards: (setup, deps) => {
    const readers = codecReadersOf(deps.config);
    return {
      reader: requireCodecReader(deps, readers, { cookie: true }),
      readerByHeader: requireCodecReader(deps, readers, { cookie: false }),
      inNamespace: namespaceIs(setup.namespace),
    };
  },
  principal: sessionPrincipalOf,
});
