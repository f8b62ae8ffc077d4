import { defaultPayloadConverter } from '@temporalio/common';
import { toJson } from '../../api/temporal-codec/payloads';
import { KeyringPayloadCodec } from '../../temporal/payloadCodec';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';

const UI = 'http://127.0.0.1:8233';
const email = `codec-${Date.now()}@example.com`;

let open: TestApp;
let listed: TestApp;
let acme: TestOperator;
let other: TestOperator;
let sealedBody: { payloads: Array<{ metadata: Record<string, string>; data: string }> };

beforeAll(async () => {
  open = await startTestApp({ TEMPORAL_UI_URL: UI });
  acme = await signupOperator(open.url, 'Acme Codec');
  other = await signupOperator(open.url, 'Other Codec');
  listed = await startTestApp({ TEMPORAL_UI_URL: UI, TEMPORAL_CODEC_OPERATORS: acme.operatorId });
  const codec = new KeyringPayloadCodec(listed.deps.keyring, listed.deps.config.TEMPORAL_NAMESPACE);
  sealedBody = { payloads: (await codec.encode([defaultPayloadConverter.toPayload({ email })])).map(toJson) };
});
afterAll(async () => {
  await listed?.close();
  await open?.close();
});

const decodeUrl = () => `${listed.url}/temporal-codec/decode`;
const post = (url: string, headers: Record<string, string>, body: unknown = sealedBody) =>
  http(url, { headers: { 'x-namespace': 'default', ...headers }, body });

describe('Temporal codec endpoint: protection', () => {
  it('401 without a credential, with an API key, and with a made-up token; exact bodies', async () => {
    const none = await post(decodeUrl(), {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: "An Owner's session is required: Authorization: Bearer <access token>, or the codec session cookie" },
    });
    const key = await createApiKey(listed.url, acme);
    const byKey = await post(decodeUrl(), { authorization: `Bearer ${key.key}` });
    expect(byKey.status).toBe(401);
    expect(byKey.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'A session token is required' } });
    const forged = await post(decodeUrl(), { cookie: 'temporal_codec_session=eyJhbGciOiJIUzI1NiJ9.e30.x' });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid credentials' } });
  });

  it('403 for an Admin of the listed organisation, and for the Owner of an organisation that is not listed', async () => {
    const admin = await addMemberAndSignIn(listed.deps.db, listed.url, acme.operatorId, 'admin');
    const byAdmin = await post(decodeUrl(), { authorization: `Bearer ${admin.accessToken}` });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner can read Temporal payloads' } });
    const notListed = {
      success: false,
      error: { code: 'FORBIDDEN', message: "Your organisation may not read Temporal payloads (it is not in the platform's TEMPORAL_CODEC_OPERATORS)" },
    };
    const byOtherOwner = await post(decodeUrl(), { authorization: `Bearer ${other.accessToken}` });
    expect(byOtherOwner.status).toBe(403);
    expect(byOtherOwner.body).toEqual(notListed);
    const session = await http(`${listed.url}/temporal-codec/session`, { method: 'POST', token: other.accessToken });
    expect(session.status).toBe(403);
    expect(session.headers.get('set-cookie')).toBeNull();
    const unlisted = await post(`${open.url}/temporal-codec/decode`, { authorization: `Bearer ${acme.accessToken}` });
    expect(unlisted.status).toBe(403);
    expect(unlisted.body).toEqual(notListed);
  });

  it("CORS answers only the Temporal UI's origin, with credentials; another origin gets no CORS header", async () => {
    const preflight = (origin: string) =>
      fetch(decodeUrl(), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
      });
    const evil = await preflight('http://127.0.0.1:9999');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const ui = await preflight(UI);
    expect(ui.headers.get('access-control-allow-origin')).toBe(UI);
    expect(ui.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ui.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');

    const evilPost = await post(decodeUrl(), { origin: 'https://evil.example', authorization: `Bearer ${acme.accessToken}` });
    expect(evilPost.headers.get('access-control-allow-origin')).toBeNull();
    const uiPost = await post(decodeUrl(), { origin: UI });
    expect(uiPost.status).toBe(401);
    expect(uiPost.headers.get('access-control-allow-origin')).toBe(UI);
    // The rest of the API keeps ALLOWED_ORIGINS (default any).
    const health = await fetch(`${listed.url}/healthz`, { headers: { origin: 'https://evil.example' } });
    expect(health.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });
});

describe('Temporal codec endpoint: errors', () => {
  const owner = () => ({ authorization: `Bearer ${acme.accessToken}` });

  it('400 for another namespace and for a malformed body, naming the field', async () => {
    const namespace = await post(decodeUrl(), { ...owner(), 'x-namespace': 'elsewhere' });
    expect(namespace.status).toBe(400);
    expect(namespace.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input: X-Namespace: must be "default"',
        details: [{ field: 'X-Namespace', message: 'must be "default"' }],
      },
    });
    const missing = await post(decodeUrl(), owner(), {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      error: { code: 'MISSING_FIELDS', message: 'Missing required fields: payloads', details: [{ field: 'payloads', message: 'is required' }] },
    });
    const notBase64 = await post(decodeUrl(), owner(), { payloads: [{ metadata: { encoding: 'not base64!' }, data: '' }] });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input: payloads.0.metadata.encoding: must be base64',
        details: [{ field: 'payloads.0.metadata.encoding', message: 'must be base64' }],
      },
    });
  });

  it('422 for an altered payload or one sealed with a key this keyring does not hold; nothing of it comes back', async () => {
    const [good] = sealedBody.payloads;
    const data = Buffer.from(good!.data, 'base64');
    data[data.length - 1]! ^= 1;
    const altered = await post(decodeUrl(), owner(), { payloads: [good, { ...good, data: data.toString('base64') }] });
    expect(altered.status).toBe(422);
    expect(altered.body).toEqual({
      success: false,
      error: {
        code: 'PAYLOAD_UNREADABLE',
        message: 'payloads.1 cannot be decrypted: unknown key, altered data or a stored payload no longer kept',
        details: [{ field: 'payloads.1', message: 'unknown key, altered data or a stored payload no longer kept' }],
      },
    });
    expect(altered.text).not.toContain(email);
    const unknownKey = await post(decodeUrl(), owner(), {
      payloads: [{ ...good, metadata: { ...good!.metadata, 'encryption-key-id': Buffer.from('00000000').toString('base64') } }],
    });
    expect(unknownKey.status).toBe(422);
  });
});

describe('Temporal codec endpoint: success', () => {
  it('the listed Owner decodes with the bearer token (CLI --codec-auth); unsealed payloads pass through', async () => {
    const legacy = toJson(defaultPayloadConverter.toPayload({ legacy: true }));
    const response = await post(decodeUrl(), { authorization: `Bearer ${acme.accessToken}` }, { payloads: [...sealedBody.payloads, legacy] });
    expect(response.status).toBe(200);
    expect(response.body.payloads).toHaveLength(2);
    expect(Buffer.from(response.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('json/plain');
    expect(JSON.parse(Buffer.from(response.body.payloads[0].data, 'base64').toString())).toEqual({ email });
    expect(response.body.payloads[1]).toEqual(legacy);
  });

  it('the session route sets an HttpOnly SameSite=Strict cookie on /temporal-codec; the UI decodes with it; DELETE clears it', async () => {
    const session = await http(`${listed.url}/temporal-codec/session`, { method: 'POST', token: acme.accessToken });
    expect(session.status).toBe(200);
    expect(Date.parse(session.body.data.expiresAt)).toBeGreaterThan(Date.now());
    const setCookie = session.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^temporal_codec_session=[^;]+; path=\/temporal-codec; expires=[^;]+; samesite=strict; httponly$/);
    const cookie = setCookie.split(';')[0]!;

    const decoded = await post(decodeUrl(), { cookie, origin: UI });
    expect(decoded.status).toBe(200);
    expect(decoded.headers.get('access-control-allow-origin')).toBe(UI);
    expect(JSON.parse(Buffer.from(decoded.body.payloads[0].data, 'base64').toString())).toEqual({ email });

    const encoded = await post(`${listed.url}/temporal-codec/encode`, { cookie }, { payloads: [toJson(defaultPayloadConverter.toPayload({ email }))] });
    expect(encoded.status).toBe(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(encoded.body.payloads[0].data, 'base64').includes(email)).toBe(false);
    const roundTrip = await post(decodeUrl(), { cookie }, encoded.body);
    expect(JSON.parse(Buffer.from(roundTrip.body.payloads[0].data, 'base64').toString())).toEqual({ email });

    const cleared = await http(`${listed.url}/temporal-codec/session`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(cleared.headers.get('set-cookie')).toMatch(
      /^temporal_codec_session=; path=\/temporal-codec; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=strict; httponly$/,
    );
  });
});
