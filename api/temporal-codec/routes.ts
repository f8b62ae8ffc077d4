import { z } from 'zod';
import type { AppDeps } from '../deps';
import { bearerSession, CodedError, jsonContent } from '../openapi/registry';
import { codedError } from '../openapi/responses';
import { closeSessionHandler, decodeHandler, encodeHandler, openSessionHandler } from './handlers';
import { codecServer } from './area';
import { CodecBody } from './payloads';

const security = [{ [bearerSession.name]: [] }];
const namespaceHeader = z.object({
  'x-namespace': z.string().optional().openapi({ description: "The Temporal namespace (the platform's TEMPORAL_NAMESPACE); the UI always sends it" }),
});
const sealed = { payloads: [{ metadata: { encoding: 'YmluYXJ5L2VuY3J5cHRlZA==', 'encryption-key-id': 'M2YyYTljMWI=' }, data: 'q83vEjRWeJA=' }] };
const plain = { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'eyJpZCI6InB6In0=' }] };
const denied = {
  401: jsonContent(CodedError, 'UNAUTHORIZED: no, an invalid or a revoked session (header or codec cookie); an API key is not accepted'),
  403: jsonContent(CodedError, 'FORBIDDEN: not the Owner, or an organisation not in TEMPORAL_CODEC_OPERATORS'),
};

codecServer.endpoint({
  method: 'post',
  path: '/decode',
  security,
  summary: "Temporal codec server: open sealed payloads for the Web UI or CLI (an Owner's session, or the codec cookie)",
  guards: ['reader', 'inNamespace'],
  request: { headers: namespaceHeader, body: { description: 'Payloads as Temporal stores them', example: sealed } },
  responses: {
    200: jsonContent(CodecBody, 'The same payloads opened; payloads that were never sealed come back unchanged', plain),
    400: jsonContent(CodedError, 'VALIDATION_FAILED: a malformed body, or X-Namespace of another namespace'),
    ...denied,
    422: jsonContent(CodedError, 'PAYLOAD_UNREADABLE: a payload sealed with a key the keyring no longer holds, or altered'),
  },
  ...decodeHandler,
});

codecServer.endpoint({
  method: 'post',
  path: '/encode',
  security,
  summary: 'Temporal codec server: seal payloads the Web UI or CLI sends (start, signal) with the current key',
  guards: ['reader', 'inNamespace'],
  request: { headers: namespaceHeader, body: { description: 'Plain payloads', example: plain } },
  responses: { 200: jsonContent(CodecBody, 'The same payloads sealed', sealed), 400: jsonContent(CodedError, 'VALIDATION_FAILED'), ...denied },
  ...encodeHandler,
});

codecServer.endpoint({
  method: 'post',
  path: '/session',
  security,
  summary: "Put the caller's access token in the codec cookie (HttpOnly, SameSite=Strict, path /temporal-codec) for the Temporal UI",
  guards: ['readerByHeader'],
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: z.object({ expiresAt: z.string() }) }), 'Cookie set until the token expires', {
      success: true,
      data: { expiresAt: '2026-01-01T12:00:00.000Z' },
    }),
    ...denied,
  },
  ...openSessionHandler,
});

codecServer.endpoint({
  method: 'delete',
  path: '/session',
  summary: 'Remove the codec cookie',
  security: 'none',
  responses: { 204: { description: 'Cookie removed' }, 500: codedError('INTERNAL_ERROR') },
  ...closeSessionHandler,
});

export const createTemporalCodecRouter = (deps: AppDeps) => codecServer.router(deps);
