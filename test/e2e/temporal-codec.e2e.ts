import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../../devstack/freePort';
import { findTemporalCli } from '../../devstack/temporalCli';
import { startTemporalDevServer, TemporalStartError, type TemporalDevServer } from '../../devstack/temporalDevServer';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { screenshot } from './browser';
import { signedInBrowser } from './steps';

/**
 * An Owner reads a sealed run in the real Temporal Web UI: a dev server of its own with its UI pointed at the
 * API's codec endpoint (as `npm start` does), a worker and the API on it. The dashboard's run link sets the codec
 * cookie; with "Include cross-origin credentials" on, the UI decodes through `/temporal-codec` and shows the
 * run's input; without it, the UI gets 401s and shows no plaintext.
 */
let temporal: TemporalDevServer;
let worker: WorkerProcess;
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let uiUrl: string;
const email = `ui-planted-${randomUUID().slice(0, 8)}@example.com`;

/**
 * A dev server with its UI on free ports. It takes more ports than the two named (HTTP, metrics, its services), each
 * found free by itself: one taken meanwhile by a neighbour ends the start, and fresh ports are tried again.
 */
async function serverWithUi(binary: string): Promise<{ temporal: TemporalDevServer; uiUrl: string; apiPort: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const [port, uiPort, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
    try {
      const temporal = await startTemporalDevServer({
        binary,
        port,
        uiPort,
        uiCodecEndpoint: `http://127.0.0.1:${apiPort}/temporal-codec`,
        namespace: 'default',
        logLevel: 'error',
        log: () => undefined,
      });
      return { temporal, uiUrl: `http://127.0.0.1:${uiPort}`, apiPort };
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TemporalStartError)) throw error;
    }
  }
}

beforeAll(async () => {
  const started = await serverWithUi(await findTemporalCli({ log: () => undefined }));
  ({ temporal, uiUrl } = started);
  const { apiPort } = started;
  const env = { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: `codec-ui-${randomUUID().slice(0, 8)}` };
  worker = await spawnWorker(env);
  app = await startTestApp({ ...env, PORT: String(apiPort), HOST: '127.0.0.1', TEMPORAL_UI_URL: uiUrl, TEMPORAL_CODEC_OPERATORS: '*' });
  owner = await signupOperator(app.url, 'Codec Casino');
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await worker?.stop();
  await temporal?.stop();
});

describe('the Temporal Web UI reads a sealed run through the codec endpoint', () => {
  it("decodes the run's input for the Owner who followed the dashboard's link, and shows nothing without credentials", async () => {
    const key = (await createApiKey(app.url, owner, 'backend')).key;
    const created = await http(`${app.url}/workflows-api/workflows`, {
      token: key,
      body: {
        name: 'Mark',
        nodes: [
          { id: 'start', type: 'trigger.manual', params: {} },
          { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.email }}', key: 'risk_score', value: 1 } },
        ],
        edges: [{ from: 'start', to: 'mark' }],
      },
    });
    expect(created.status).toBe(201);
    const run = (await http(`${app.url}/workflows-api/workflows/${created.body.data.id}/test`, { token: key, body: { email } })).body.data;
    expect(run.input).toEqual({ email });

    const codecStatuses: number[] = [];
    page.context().on('response', (response) => {
      if (response.url().startsWith(`${app.url}/temporal-codec/decode`)) codecStatuses.push(response.status());
    });
    const decodeAnswered = async () => {
      for (const deadline = Date.now() + 20_000; codecStatuses.length === 0;) {
        if (Date.now() > deadline) throw new Error('the Temporal UI never called the codec endpoint');
        await page.waitForTimeout(100);
      }
      await page.waitForTimeout(1000);
    };
    await page.goto(`/workflows/${created.body.data.id}?run=${run.id}`);
    const link = page.getByRole('link', { name: 'Open in the Temporal Web UI' });
    const [ui] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await ui.waitForLoadState();
    expect(ui.url()).toBe(`${uiUrl}/namespaces/default/workflows/${run.temporalWorkflowId}`);
    const cookies = (await page.context().cookies(`${app.url}/temporal-codec/decode`)).filter((cookie) => cookie.name.startsWith('temporal_codec'));
    expect(cookies.map((cookie) => [cookie.name, cookie.path, cookie.httpOnly, cookie.sameSite])).toEqual([
      ['temporal_codec_session', '/temporal-codec', true, 'Strict'],
    ]);

    await decodeAnswered();
    expect(await ui.content()).not.toContain(email);
    expect(new Set(codecStatuses)).toEqual(new Set([401]));

    // The UI's codec settings, as an Owner sets them once in its settings dialog (the dev server cannot).
    const settings = { overrideRemoteCodecConfiguration: true, endpoint: `${app.url}/temporal-codec`, includeCredentials: true };
    await ui.evaluate(`for (const [name, value] of Object.entries(${JSON.stringify(settings)})) localStorage.setItem(name, JSON.stringify(value))`);
    codecStatuses.length = 0;
    await ui.reload();
    await ui.getByText(email).first().waitFor({ timeout: 20_000 });
    await decodeAnswered();
    expect(new Set(codecStatuses)).toEqual(new Set([200]));
    await screenshot(ui, 'temporal-ui-decoded-run');
  });
});
