import { anyJson, headers, httpUrl, may, need, oneOf } from '../checks';
import { MARKETING_PARAMS } from '../purpose';
import { objectOf, READ_OUTSIDE, TEXT, UNKNOWN_WRITE_OUTSIDE, type ActionModule } from '../module';
import { MARKETING_FIELDS } from '../editor';
import { flow } from './flow';

/** `action.http_request`: any HTTP endpoint (activities/automation/http.ts). */
export const httpRequest: ActionModule = {
  ...flow,
  label: 'HTTP request',
  description: 'Calls any HTTP endpoint.',
  defaults: { method: 'POST', url: 'https://example.com/hook' },
  fields: [
    { kind: 'select', name: 'method', label: 'Method', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, method] as const) },
    { kind: 'text', name: 'url', label: 'URL', required: true, type: 'url', placeholder: 'https://example.com/hook' },
    { kind: 'object', name: 'headers', label: 'Headers', stringsOnly: true, keyLabel: 'Header' },
    { kind: 'value', name: 'body', label: 'Body (optional)', hint: 'JSON, text, or {{ expression }}' },
    ...MARKETING_FIELDS,
  ],
  branchLabels: null,
  params: {
    method: need(oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
    url: need(httpUrl),
    headers: may(headers),
    body: may(anyJson),
    ...MARKETING_PARAMS,
  },
  output: objectOf({ status: { type: 'integer' }, headers: { type: 'object', additionalProperties: TEXT }, body: {} }, ['status', 'headers', 'body']),
  /** GET reads; PUT and DELETE are idempotent by HTTP's definition; a POST or PATCH may do anything. */
  effect: (node) => {
    const method = typeof node.params.method === 'string' ? node.params.method.toUpperCase() : '';
    if (method === 'GET') return READ_OUTSIDE;
    if (method === 'PUT' || method === 'DELETE') return { ...UNKNOWN_WRITE_OUTSIDE, idempotentHint: true };
    return UNKNOWN_WRITE_OUTSIDE;
  },
  wouldDo: (p) => ({ method: p.method, target: p.url, template: p.body }),
};
