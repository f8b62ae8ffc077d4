import { addressPolicy } from '../../core/gateway/addressPolicy';
import { DestinationNotAllowedError, ResponseTooLargeError, safeFetch } from '../gateway/safeFetch';
import type { ActivityDeps } from '../deps';
import { pauseForPayloadBudget } from '../payloadBudget';
import { nodeFailure, retryableFailure } from './failures';
import type { HttpRequestInput, HttpRequestOutput } from './types';
import { PAUSES_ITSELF, type ActivityDeclarations } from '../declarations';

const MAX_RESPONSE_BYTES = 1024 * 1024;

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (text === '') return null;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * `action.http_request`: one outbound call under the gateway's address policy. A 5xx, 408, 429 or a
 * network error throws a retryable error (Temporal retries the activity); any other non-2xx is a
 * non-retryable `HTTP_<status>` node failure. Every attempt carries the same `Idempotency-Key` (run and node), so
 * delivery is at least once and a receiver that keys on it sees each request once.
 */
export function createHttpActivity(deps: ActivityDeps) {
  return {
    async automationHttpRequest(input: HttpRequestInput): Promise<HttpRequestOutput> {
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        throw nodeFailure('INVALID_URL', `Not a valid URL: ${input.url}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw nodeFailure('INVALID_URL', 'Only http and https URLs are allowed');
      const hasBody = input.body !== undefined && input.method !== 'GET';
      const headers: Record<string, string> = { accept: 'application/json', ...(input.headers ?? {}) };
      const has = (header: string) => Object.keys(headers).some((name) => name.toLowerCase() === header);
      if (hasBody && !has('content-type')) headers['content-type'] = 'application/json';
      if (input.idempotencyKey && !has('idempotency-key')) headers['idempotency-key'] = input.idempotencyKey;
      const body = hasBody ? (typeof input.body === 'string' ? input.body : JSON.stringify(input.body)) : undefined;
      const operatorId = input.operatorId ?? '';
      await pauseForPayloadBudget(deps.payloadBudget, operatorId);
      const call = deps.payloadBudget?.reserve(operatorId);
      let response;
      try {
        response = await safeFetch(
          { method: input.method, url, headers, ...(body === undefined ? {} : { body }) },
          {
            timeoutMs: deps.config.WORKFLOW_HTTP_TIMEOUT_MS,
            maxBytes: MAX_RESPONSE_BYTES,
            isAllowedAddress: addressPolicy(deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS),
          },
        );
      } catch (error) {
        if (error instanceof DestinationNotAllowedError) throw nodeFailure('DESTINATION_NOT_ALLOWED', error.message);
        if (error instanceof ResponseTooLargeError) throw nodeFailure('RESPONSE_TOO_LARGE', error.message);
        throw retryableFailure('NETWORK_ERROR', `request to ${url.host} failed: ${(error as Error).message}`, error);
      } finally {
        if (call && !response) deps.payloadBudget!.release(call);
      }
      if (call) await deps.payloadBudget!.arrived(call, response.body.length);
      const output: HttpRequestOutput = {
        status: response.status,
        headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)])),
        body: parseBody(response.body, response.headers['content-type']),
      };
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        throw retryableFailure(`HTTP_${response.status}`, `HTTP ${response.status} from ${url.host}`);
      }
      if (response.status >= 400) throw nodeFailure(`HTTP_${response.status}`, `HTTP ${response.status} from ${url.host}`, output);
      return output;
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const HTTP_ACTIVITIES = {
  automationHttpRequest: PAUSES_ITSELF,
} satisfies ActivityDeclarations<typeof createHttpActivity>;
