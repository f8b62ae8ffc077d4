import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { PRIVATE_URL_MESSAGE } from '../../core/automations/nodes/httpRequest/privateUrl';

/**
 * `action.http_request` to a private address is refused when the workflow is saved, by the rule the gateway's SSRF
 * guard applies when the step runs (core/gateway/addressPolicy.ts), while `GATEWAY_ALLOW_PRIVATE_NETWORKS` is off: a
 * literal IP outside public unicast or `localhost` answers 400 VALIDATION_FAILED naming `nodes[i].params.url`. A
 * hostname, or a host a template builds, is left to the run-time guard.
 */
let guarded: TestApp;
let open: TestApp;
let client: AutomationsClient;

beforeAll(async () => {
  guarded = await startTestApp({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'false' });
  open = await startTestApp({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' });
  client = await automationsClient(guarded);
});
afterAll(async () => {
  await guarded?.close();
  await open?.close();
});

const call = (url: string) => ({ id: 'call', type: 'action.http_request', params: { method: 'POST', url } });
const problem = { field: 'nodes[2].params.url', message: PRIVATE_URL_MESSAGE };

describe('saving an HTTP step to a private address', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['RFC 1918', 'https://10.1.2.3/hook'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['IPv4-mapped private', 'http://[::ffff:192.168.0.1]/hook'],
    ['localhost', 'http://localhost:3000/hook'],
    ['a subdomain of localhost', 'http://api.localhost/hook'],
    ['a decimal IPv4 the URL parser reads as 127.0.0.1', 'http://2130706433/hook'],
    ['a private host before a template', 'http://192.168.1.10/{{ trigger.data.path }}'],
  ])('refuses %s with 400 naming the field', async (_name, url) => {
    const body = chain('Private', [{ id: 'note', type: 'action.note', params: { text: 'first' } }, call(url)]);
    const created = await client.wf('/workflows', { method: 'POST', body });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('VALIDATION_FAILED');
    expect(created.body.error.details).toEqual([problem]);
  });

  it('refuses it on an update too, and keeps the saved version', async () => {
    const workflow = await client.create(chain('Public first', [call('https://hooks.example.com/in')]));
    const updated = await client.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: chain('Public first', [call('http://10.0.0.5/in')]) });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details).toEqual([{ field: 'nodes[1].params.url', message: PRIVATE_URL_MESSAGE }]);
    expect((await client.wf(`/workflows/${workflow.id}`)).body.data).toMatchObject({
      version: 1,
      nodes: [{}, { params: { url: 'https://hooks.example.com/in' } }],
    });
  });

  it.each([
    ['a public address', 'http://93.184.216.34/hook'],
    ['a hostname (checked when it runs, on the address it resolves to)', 'https://internal.example.com/hook'],
    ['a host a template builds', 'http://{{ trigger.host }}/hook'],
  ])('saves %s', async (_name, url) => {
    const created = await client.wf('/workflows', { method: 'POST', body: chain('Allowed', [call(url)]) });
    expect(created.status).toBe(201);
  });

  it('saves a private address where private networks are allowed', async () => {
    const openClient = await automationsClient(open);
    const created = await openClient.wf('/workflows', { method: 'POST', body: chain('Lab', [call('http://127.0.0.1:8080/hook')]) });
    expect(created.status).toBe(201);
  });
});
