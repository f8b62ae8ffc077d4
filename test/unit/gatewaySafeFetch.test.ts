import { DestinationNotAllowedError, ProviderTimeoutError, ResponseTooLargeError, safeFetch, type SafeFetchOptions } from '../../activities/gateway/safeFetch';
import { isPublicAddress } from '../../core/gateway/addressPolicy';
import { startProvider, type TestProvider } from '../helpers/providerServer';

const allowAll: SafeFetchOptions = { timeoutMs: 2000, maxBytes: 1024, isAllowedAddress: () => true };
const only127001: SafeFetchOptions = { ...allowAll, isAllowedAddress: (address) => address === '127.0.0.1' };
const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url: new URL(url), headers });

let target: TestProvider;
beforeAll(async () => {
  target = await startProvider(() => ({ status: 200, body: { ok: true } }));
});
afterAll(() => target.close());
beforeEach(() => target.requests.splice(0));

describe('safeFetch address policy', () => {
  it('refuses loopback by IP literal and by name without sending anything', async () => {
    const policy = { ...allowAll, isAllowedAddress: isPublicAddress };
    await expect(safeFetch(get(`${target.url}/x`), policy)).rejects.toMatchObject({ name: 'DestinationNotAllowedError', viaRedirect: false });
    await expect(safeFetch(get(`http://localhost:${target.port}/x`), policy)).rejects.toBeInstanceOf(DestinationNotAllowedError);
    expect(target.requests).toHaveLength(0);
  });

  it('follows redirects only to allowed addresses', async () => {
    const redirector = await startProvider((request) =>
      request.path === '/ok'
        ? { status: 302, headers: { location: `${target.url}/landed` } }
        : { status: 307, headers: { location: `http://127.0.0.2:${target.port}/x` } },
    );
    try {
      const followed = await safeFetch(get(`${redirector.url}/ok`), only127001);
      expect(followed.status).toBe(200);
      expect(target.requests.map((request) => request.path)).toEqual(['/landed']);
      await expect(safeFetch(get(`${redirector.url}/private`), only127001)).rejects.toMatchObject({ name: 'DestinationNotAllowedError', viaRedirect: true });
      expect(target.requests).toHaveLength(1);
    } finally {
      await redirector.close();
    }
  });

  it('drops credentials when a redirect leaves the origin, keeps them on the same origin, and turns a 303 POST into a GET', async () => {
    const redirector = await startProvider((request) => {
      if (request.path === '/same') return { status: 307, headers: { location: '/again' } };
      if (request.path === '/again') return { status: 200, body: { seen: request.headers['x-api-key'] ?? null } };
      return { status: 303, headers: { location: `http://localhost:${target.port}/elsewhere` } };
    });
    try {
      const headers = { 'X-Api-Key': 'k1', authorization: 'Bearer t', 'content-type': 'application/json' };
      const same = await safeFetch({ ...get(`${redirector.url}/same`, headers), credentialHeaders: ['X-Api-Key'] }, allowAll);
      expect(JSON.parse(same.body.toString())).toEqual({ seen: 'k1' });

      await safeFetch({ method: 'POST', url: new URL(`${redirector.url}/away`), headers, body: '{"a":1}', credentialHeaders: ['X-Api-Key'] }, allowAll);
      const landed = target.requests[0]!;
      expect(landed.method).toBe('GET');
      expect(landed.body).toBe('');
      expect(landed.headers['x-api-key']).toBeUndefined();
      expect(landed.headers.authorization).toBeUndefined();
      expect(landed.headers['content-type']).toBeUndefined();
    } finally {
      await redirector.close();
    }
  });
});

describe('safeFetch limits', () => {
  it('gives up after the timeout', async () => {
    const slow = await startProvider(() => ({ status: 200, body: {}, delayMs: 1000 }));
    try {
      const started = Date.now();
      await expect(safeFetch(get(`${slow.url}/`), { ...allowAll, timeoutMs: 150 })).rejects.toBeInstanceOf(ProviderTimeoutError);
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      await slow.close();
    }
  });

  it('refuses bodies over the limit, declared or streamed', async () => {
    const big = await startProvider((request) =>
      request.path === '/declared'
        ? { status: 200, raw: 'x'.repeat(2048) }
        : { status: 200, raw: 'y'.repeat(2048), headers: { 'transfer-encoding': 'chunked' } },
    );
    try {
      await expect(safeFetch(get(`${big.url}/declared`), allowAll)).rejects.toBeInstanceOf(ResponseTooLargeError);
      await expect(safeFetch(get(`${big.url}/streamed`), allowAll)).rejects.toBeInstanceOf(ResponseTooLargeError);
      expect((await safeFetch(get(`${big.url}/declared`), { ...allowAll, maxBytes: 4096 })).body.length).toBe(2048);
    } finally {
      await big.close();
    }
  });
});

describe('safeFetch onDispatch: whether the request may have reached the supplier', () => {
  const watched = () => {
    const seen = { dispatched: 0 };
    return { seen, options: { ...allowAll, timeoutMs: 300, onDispatch: () => (seen.dispatched += 1) } };
  };

  it('is not called when the connection never opens, nor for a refused destination', async () => {
    const closed = await startProvider(() => ({ status: 200 }));
    await closed.close();
    const refused = watched();
    await expect(safeFetch(get(`${closed.url}/x`), refused.options)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(safeFetch(get(`${target.url}/x`), { ...refused.options, isAllowedAddress: isPublicAddress })).rejects.toBeInstanceOf(
      DestinationNotAllowedError,
    );
    expect(refused.seen.dispatched).toBe(0);
  });

  it('is called once the connection is open, a new or a reused one, also when no answer comes', async () => {
    const silent = await startProvider(async () => ({ status: 200, delayMs: 2000 }));
    try {
      const timedOut = watched();
      await expect(safeFetch(get(`${silent.url}/x`), timedOut.options)).rejects.toBeInstanceOf(ProviderTimeoutError);
      expect(timedOut.seen.dispatched).toBe(1);
      const answered = watched();
      expect((await safeFetch(get(`${target.url}/x`), answered.options)).status).toBe(200);
      expect((await safeFetch(get(`${target.url}/y`), answered.options)).status).toBe(200);
      expect(answered.seen.dispatched).toBe(2);
    } finally {
      await silent.close();
    }
  });
});
