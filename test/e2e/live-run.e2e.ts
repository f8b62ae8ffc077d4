import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, igamingOperator, openFromNav, overflow, signedInBrowser, signIn } from './steps';

/**
 * A journey in progress shows its steps live (issue #44): the welcome email done, the wait for a deposit with its event
 * type and deadline, in the Runs list and on the run's page; the deposit arrives and the same page, never reloaded,
 * shows the run completed.
 */
const WAIT_SECONDS = 600;
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let runId: string;
let until: string;

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
  ({ owner, key } = await igamingOperator(app.url, 'Live Casino', ['p-live']));
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Welcome live',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'welcome', type: 'action.send_email', params: { to: 'p-live@players.test', subject: 'Welcome', text: 'Hello' } },
        {
          id: 'deposit',
          type: 'action.wait_for_event',
          params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds: WAIT_SECONDS },
        },
        { id: 'thanks', type: 'action.note', params: { text: 'deposited' } },
      ],
      edges: [
        { from: 'start', to: 'welcome' },
        { from: 'welcome', to: 'deposit' },
        { from: 'deposit', to: 'thanks', when: true },
      ],
    },
  });
  expect(created.status).toBe(201);
  const started = await http(`${app.url}/workflows-api/workflows/${created.body.data.id}/test`, { token: key, body: { entity: { externalId: 'p-live' } } });
  expect(started.status).toBe(202);
  runId = started.body.data.id;
  // The run waits once its deposit step reports the wait (the API reads it from the live workflow).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = (await http(`${app.url}/workflows-api/runs/${runId}`, { token: key })).body.data;
    const wait = run.nodes.find((node: { id: string; waiting?: { until: string } }) => node.id === 'deposit')?.waiting;
    if (wait) {
      until = wait.until;
      break;
    }
    if (Date.now() > deadline) throw new Error(`the run never waited: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The deadline as the dashboard writes it (en-GB, to the second, the browser's zone). */
const shown = (iso: string) =>
  page.evaluate((value) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(value)), iso);

describe('a journey waiting for a deposit', () => {
  it('shows in the Runs list where it is: waiting for the deposit until its deadline, 2 of 4 steps done', async () => {
    await openFromNav(page, 'Runs');
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.waitFor();
    const status = row.locator('td[data-label="Status"]');
    await status.locator('.badge-waiting').waitFor();
    expect(await status.textContent()).toContain(`waiting for entity_event.transaction until ${await shown(until)}`);
    expect(await status.textContent()).toContain('2 of 4 steps done');
    expect(await row.locator('td[data-label="Duration"]').textContent()).toMatch(/so far$/);
    await checkPage(page, 'runs-live');
  });

  it("shows on the run's page the email done and the wait with its deadline, then completes without a reload", async () => {
    await page
      .locator(`tr[data-run-id="${runId}"]`)
      .getByRole('link', { name: `Open run ${runId}` })
      .click();
    const step = (id: string) => page.locator(`.run-steps li[data-step="${id}"]`);
    await step('deposit').locator('.badge-waiting').waitFor();
    expect(await step('welcome').locator('.run-step-head .badge-completed').count()).toBe(1);
    expect(await step('welcome').textContent()).toMatch(/started \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d/);
    expect(await step('deposit').textContent()).toContain(`waiting for entity_event.transaction until ${await shown(until)}`);
    expect(await step('thanks').count()).toBe(0);
    await page.locator('.react-flow__node[data-id="deposit"] .badge-waiting').waitFor();
    await page.locator('.react-flow__node[data-id="welcome"] .badge-completed').waitFor();
    await checkPage(page, 'run-live');

    // Anything the page keeps survives only if it is never reloaded.
    await page.evaluate('window.stillThisPage = true');
    const deposited = await http(`${app.url}/operator-data-api/entities/p-live/events`, {
      token: key,
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } },
    });
    expect(deposited.status).toBe(201);
    await page.locator('#run-title .badge-completed').waitFor({ timeout: 20_000 });
    await step('thanks').locator('.badge-completed').waitFor();
    expect(await step('deposit').locator('.run-step-head .badge-completed').count()).toBe(1);
    expect(await page.evaluate('window.stillThisPage')).toBe(true);
    await checkPage(page, 'run-live-completed');
  });

  it('does not scroll sideways on a 390-px phone while the run waits', async () => {
    const other = await http(`${app.url}/workflows-api/runs/${runId}`, { token: key });
    expect(other.body.data.status).toBe('completed');
    // A second run of the journey, left waiting.
    const started = await http(`${app.url}/workflows-api/workflows/${other.body.data.workflowId}/test`, {
      token: key,
      body: { entity: { externalId: 'p-live' } },
    });
    const waiting = started.body.data.id as string;
    const phone = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto(`/runs/${waiting}`);
    await phone.page.locator('.run-steps li[data-step="deposit"] .badge-waiting').waitFor({ timeout: 30_000 });
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone.page, 'run-live-phone');
    await phone.page.goto('/runs');
    await phone.page.locator(`tr[data-run-id="${waiting}"] .badge-waiting`).waitFor({ timeout: 30_000 });
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await phone.page.context().close();
    expect((await http(`${app.url}/workflows-api/runs/${waiting}/cancel`, { method: 'POST', token: key })).status).toBe(202);
  });
});
