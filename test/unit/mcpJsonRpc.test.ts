import {
  cancelledRequestOf,
  errorForAppCode,
  httpStatusOf,
  isValidSessionId,
  JSONRPC_ERROR,
  mcpRequestKey,
  parseMessage,
  progressTokenOf,
  serviceErrorResponse,
} from '../../core/mcpJsonRpc';

describe('parseMessage', () => {
  it('classifies requests, notifications and client responses', () => {
    expect(parseMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({ kind: 'request', id: 1, method: 'ping', params: undefined });
    expect(parseMessage({ jsonrpc: '2.0', id: 'x', method: 'tools/list', params: {} })).toEqual({ kind: 'request', id: 'x', method: 'tools/list', params: {} });
    expect(parseMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({
      kind: 'notification',
      method: 'notifications/initialized',
      params: undefined,
    });
    expect(parseMessage({ jsonrpc: '2.0', id: 3, result: {} })).toEqual({ kind: 'response', id: 3, result: {}, error: undefined });
    expect(parseMessage({ jsonrpc: '2.0', id: 3, error: { code: 1, message: 'no' } })).toEqual({
      kind: 'response',
      id: 3,
      result: undefined,
      error: { code: 1, message: 'no' },
    });
  });

  it.each<[string, unknown, number | string | null]>([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], null],
    ['null', null, null],
    ['a number', 7, null],
    ['no jsonrpc', { id: 1, method: 'ping' }, 1],
    ['jsonrpc 2', { jsonrpc: 2, id: 1, method: 'ping' }, 1],
    ['no method', { jsonrpc: '2.0', id: 1 }, 1],
    ['an empty method', { jsonrpc: '2.0', id: 1, method: '' }, 1],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }, null],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
    ['an infinite id', { jsonrpc: '2.0', id: Number.POSITIVE_INFINITY, method: 'ping' }, null],
    ['numeric params', { jsonrpc: '2.0', id: 1, method: 'ping', params: 3 }, 1],
    ['null params', { jsonrpc: '2.0', id: 1, method: 'ping', params: null }, 1],
  ])('refuses %s, keeping a usable id', (_label, body, id) => {
    const parsed = parseMessage(body);
    expect(parsed.kind).toBe('invalid');
    expect(parsed).toMatchObject({ id });
  });
});

describe('HTTP statuses and codes', () => {
  it('follows DESIGN.md: 400 for parse and invalid request, 200 for not found and invalid params, 500 internal', () => {
    expect(httpStatusOf(JSONRPC_ERROR.PARSE_ERROR)).toBe(400);
    expect(httpStatusOf(JSONRPC_ERROR.INVALID_REQUEST)).toBe(400);
    expect(httpStatusOf(JSONRPC_ERROR.METHOD_NOT_FOUND)).toBe(200);
    expect(httpStatusOf(JSONRPC_ERROR.INVALID_PARAMS)).toBe(200);
    expect(httpStatusOf(JSONRPC_ERROR.INTERNAL_ERROR)).toBe(500);
  });

  it('maps service codes to -32001 with `code: <CODE>` and keeps protocol codes', () => {
    expect(serviceErrorResponse(4, 'AUTH_MISSING')).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32001, message: 'code: AUTH_MISSING' } });
    expect(errorForAppCode(null, 'RATE_LIMITED', 'slow down')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'code: RATE_LIMITED' } });
    expect(errorForAppCode(2, 'INVALID_REQUEST', 'bad header')).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'bad header' } });
    expect(errorForAppCode(2, 'INVALID_JSON', 'bad json')).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32700, message: 'bad json' } });
  });
});

describe('session ids and progress tokens', () => {
  it('accepts visible ASCII session ids up to 128 characters', () => {
    expect(isValidSessionId('mcps_abc-DEF_123')).toBe(true);
    expect(isValidSessionId('x'.repeat(128))).toBe(true);
    expect(isValidSessionId('x'.repeat(129))).toBe(false);
    expect(isValidSessionId('')).toBe(false);
    expect(isValidSessionId('a b')).toBe(false);
    expect(isValidSessionId('é')).toBe(false);
  });

  it('reads _meta.progressToken as a string or a number', () => {
    expect(progressTokenOf({})).toEqual({});
    expect(progressTokenOf({ _meta: {} })).toEqual({});
    expect(progressTokenOf({ _meta: { progressToken: 'p1' } })).toEqual({ token: 'p1' });
    expect(progressTokenOf({ _meta: { progressToken: 7 } })).toEqual({ token: 7 });
    expect(progressTokenOf({ _meta: { progressToken: {} } })).toEqual({ invalid: true });
    expect(progressTokenOf({ _meta: 'x' })).toEqual({ invalid: true });
  });
});

describe('cancellation', () => {
  it('reads the request a notifications/cancelled names, or null when it names none usable', () => {
    expect(cancelledRequestOf({ requestId: 3, reason: 'user aborted' })).toBe(3);
    expect(cancelledRequestOf({ requestId: 'a-1' })).toBe('a-1');
    for (const params of [undefined, [], {}, { requestId: null }, { requestId: { id: 1 } }, { requestId: Number.NaN }]) {
      expect(cancelledRequestOf(params as Record<string, unknown>)).toBeNull();
    }
  });

  it('keys a call by session and id, keeping 1 and "1" apart', () => {
    expect(mcpRequestKey('mcps_abc', 7)).toBe('mcps_abc 7');
    expect(mcpRequestKey('s', 1)).not.toBe(mcpRequestKey('s', '1'));
  });
});
