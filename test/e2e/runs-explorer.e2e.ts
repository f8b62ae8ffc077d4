import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { newPage } from './browser';
import { checkPage, igamingOperator, openFromNav, overflow, signedInBrowser, signIn } from './steps';

/**
 * The runs explorer: a designer finds the failed runs of one player among every run of the organisation, keeps the
 * filter in the address, opens a run and reads each step's input beside its output, reaches the rerun of a failed run
 * and the replay of a workflow's failed runs, and does all of it on a 390-px phone without sideways scrolling.
 */
const TEMPORAL_UI = 'http://127.0.0.1:8233';
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let provider: TestProvider;
let workflowId: string;
const runIds: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({ TEMPORAL_UI_URL: TEMPORAL_UI });
  let key: string;
  ({ owner, key } = await igamingOperator(app.url, 'Explorer Casino', ['p-1', 'p-2']));
  provider = await startProvider(() => ({ status: 422, body: { error: 'refused' } }));
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Deposit check',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'big', type: 'condition', params: { expression: 'trigger.amount > 100' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: '{{ trigger.amount }}' } },
        { id: 'notify', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/small`, body: { player: '{{ trigger.playerId }}' } } },
      ],
      edges: [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'flag', when: true },
        { from: 'big', to: 'notify', when: false },
      ],
    },
  });
  workflowId = created.body.data.id;
  for (const [name, body] of Object.entries({
    bigP1: { playerId: 'p-1', amount: 500 },
    smallP2: { playerId: 'p-2', amount: 5 },
    smallP1: { playerId: 'p-1', amount: 7 },
  })) {
    const run = await http(`${app.url}/workflows-api/workflows/${workflowId}/test`, { token: key, body });
    runIds[name] = run.body.data.id;
  }
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 900 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await provider?.close();
});

const rows = () => page.locator('.runs-table tbody tr');
const rowIds = async () => rows().evaluateAll((items) => items.map((item) => item.getAttribute('data-run-id')));
/** Polls until the table lists exactly these runs (the list reloads on every filter change). */
async function expectRows(expected: string[]): Promise<void> {
  for (let tries = 0; tries < 50 && JSON.stringify(await rowIds()) !== JSON.stringify(expected); tries += 1) await page.waitForTimeout(100);
  expect(await rowIds()).toEqual(expected);
}

describe('the runs explorer', () => {
  it('filters by status and player, kept in the address across a reload', async () => {
    await openFromNav(page, 'Runs');
    await expectRows([runIds.smallP1!, runIds.smallP2!, runIds.bigP1!]);
    await page.getByLabel('Status').selectOption('failed');
    await expectRows([runIds.smallP1!, runIds.smallP2!]);
    await page.getByLabel('Player (external ID)').fill('p-2');
    await expectRows([runIds.smallP2!]);
    expect(new URL(page.url()).search).toBe('?status=failed&player=p-2');
    await page.reload();
    await expectRows([runIds.smallP2!]);
    expect(await page.getByLabel('Status').inputValue()).toBe('failed');
    expect(await page.getByLabel('Player (external ID)').inputValue()).toBe('p-2');
    expect(await rows().first().textContent()).toContain('HTTP_422 at notify');
    await checkPage(page, 'runs-explorer');
  });

  it('filters by the branch a condition took once a workflow is chosen', async () => {
    await page.goto('/runs');
    await page.getByLabel('Workflow').selectOption(workflowId);
    await page.getByLabel('Branch taken').selectOption('big:true');
    await expectRows([runIds.bigP1!]);
    await page.getByLabel('Branch taken').selectOption('big:false');
    await expectRows([runIds.smallP1!, runIds.smallP2!]);
  });

  it("opens a run: each step's input beside its output, and the run in the Temporal Web UI", async () => {
    await page.goto('/runs?status=failed&player=p-2');
    await page.getByRole('link', { name: `Open run ${runIds.smallP2}` }).click();
    const run = page.getByRole('region', { name: /^Run run_/ });
    await run.getByText('failed', { exact: true }).first().waitFor();
    const input = run.getByRole('region', { name: 'Input of notify' });
    const output = run.getByRole('region', { name: 'Output of notify' });
    expect(await input.locator('pre').textContent()).toContain(`"url": "${provider.url}/small"`);
    expect(await input.locator('pre').textContent()).toContain('"player": "p-2"');
    expect(await output.locator('pre').textContent()).toContain('"status": 422');
    const [left, right] = [await input.boundingBox(), await output.boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);
    expect(await run.getByRole('region', { name: 'Input of big' }).textContent()).toContain('trigger.amount > 100');
    expect(await run.locator('[data-step="big"]').textContent()).toContain('took the no branch');
    const link = run.getByRole('link', { name: 'Open in the Temporal Web UI' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${TEMPORAL_UI}/namespaces/default/workflows/automation-manual-${runIds.smallP2}$`));
    await checkPage(page, 'runs-explorer-run');
  });

  it('offers the rerun of a failed run and the replay of one workflow’s failed runs', async () => {
    await page.goto('/runs?status=failed');
    await page.getByRole('link', { name: `Rerun run ${runIds.smallP1}` }).click();
    const rerun = page.getByRole('dialog', { name: 'Rerun from a step' });
    await rerun.waitFor();
    expect(await rerun.getByLabel('Step to rerun from').inputValue()).toBe('notify');
    await rerun.getByRole('button', { name: 'Keep as is' }).click();

    await page.goto(`/runs?status=failed&workflowId=${workflowId}`);
    await page.getByRole('button', { name: 'Replay failed runs…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Replay failed runs' });
    await confirm.getByText('runs again once, from its failed step').waitFor();
    await confirm.getByText('2 runs will be replayed').waitFor();
    await confirm.getByRole('button', { name: 'Replay 2 runs' }).click();
    const progress = confirm.getByRole('status', { name: 'Replay progress' });
    await progress.getByText('completed', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await progress.textContent()).toMatch(/2 of 2 replayed · 2 started · 0 succeeded · 2 failed/);
    await progress.getByRole('heading', { name: 'Errors by code' }).waitFor();
  });

  it('is usable on a 390-px phone: runs become cards, input and output stack, nothing scrolls sideways', async () => {
    const phone = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto('/runs?status=failed');
    await phone.page.locator('.runs-table tbody tr').first().waitFor();
    await phone.page.waitForLoadState('networkidle');
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone.page, 'runs-explorer-phone');
    await phone.page.goto(`/runs/${runIds.smallP2}`);
    const input = phone.page.getByRole('region', { name: 'Input of notify' });
    await input.waitFor();
    const [top, bottom] = [await input.boundingBox(), await phone.page.getByRole('region', { name: 'Output of notify' }).boundingBox()];
    expect(bottom!.y).toBeGreaterThan(top!.y + top!.height - 1);
    await phone.page.waitForLoadState('networkidle');
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone.page, 'runs-explorer-run-phone');
    await phone.context.close();
  });
});
