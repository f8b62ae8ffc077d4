import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, openFromNav, signedInBrowser } from './steps';

/**
 * An automation designer builds a workflow in the visual editor from a recipe, meets the API's
 * validation at the node and field it names, saves, test-runs it behind the confirmation, reads the
 * run, sees an event fire it, and exposes it over MCP.
 */
const TEMPORAL_UI = 'http://127.0.0.1:8233';
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp({ TEMPORAL_UI_URL: TEMPORAL_UI });
  ({ owner, key } = await igamingOperator(app.url, 'Workflow Casino', ['p-9']));
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });

/** A handle's box once the canvas has settled (adding a node re-fits the view, and a box read mid-animation misses). */
async function settledBox(selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = await page.locator(selector).boundingBox();
  for (let tries = 0; tries < 40; tries += 1) {
    await page.waitForTimeout(100);
    const box = await page.locator(selector).boundingBox();
    if (box && last && box.x === last.x && box.y === last.y) return box;
    last = box;
  }
  throw new Error(`${selector} did not settle`);
}

const centre = (box: { x: number; y: number; width: number; height: number }) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/**
 * Drags a connection from one handle to another the way a person does with a mouse (React Flow listens to pointer
 * events): press on the source, move onto the target, and let go only once the target shows it would accept the
 * edge (React Flow marks it `connectingto valid`). Under load the view can still shift after the boxes were read (the
 * canvas re-fits on a timer once a step is added), so a press that missed the source is let go and made again, and the
 * pointer follows the target until it lights up, as a hand would; a connection that never becomes valid fails.
 */
async function drag(from: string, to: string): Promise<void> {
  for (let presses = 0; ; presses += 1) {
    const start = centre(await settledBox(from));
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 12, start.y + 6, { steps: 3 });
    const held = await page
      .locator(`${from}.connectingfrom`)
      .waitFor({ state: 'attached', timeout: 2_000 })
      .then(
        () => true,
        () => false,
      );
    if (held) break;
    await page.mouse.up();
    if (presses === 4) throw new Error(`${from} never started a connection`);
  }
  for (let tries = 0; ; tries += 1) {
    const end = centre(await settledBox(to));
    await page.mouse.move(end.x, end.y, { steps: 12 });
    const lit = await page
      .locator(`${to}.connectingto.valid`)
      .waitFor({ state: 'attached', timeout: 2_000 })
      .then(
        () => true,
        () => false,
      );
    if (lit) break;
    if (tries === 4) {
      await page.mouse.up();
      throw new Error(`${to} never accepted the connection from ${from}`);
    }
  }
  await page.mouse.up();
}

describe('the workflow editor', () => {
  it('starts from a recipe when there is no workflow yet', async () => {
    await openFromNav(page, 'Workflows');
    await page.getByRole('heading', { name: 'No workflows yet' }).waitFor();
    await checkPage(page, 'workflows-empty');
    await page.getByRole('link', { name: 'Use “Big deposit alert”' }).click();
    await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
    for (const id of ['deposit', 'big', 'flag']) await node(id).waitFor();
    await checkPage(page, 'workflow-editor-recipe');
  });

  it('adds a step from the palette and connects it: by dragging, and from the inspector', async () => {
    // Nothing selected, so the new step comes unconnected (a step added while one is selected follows it, connected).
    const clearSelection = () => page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await clearSelection();
    await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Record an event' }).click();
    await node('record_event').waitFor();
    await inspector().getByRole('heading', { name: 'Record an event' }).waitFor();
    await inspector().getByLabel('Event type').fill('support');
    await drag('.react-flow__node[data-id="flag"] .react-flow__handle.source', '.react-flow__node[data-id="record_event"] .react-flow__handle.target');
    await page.locator('.react-flow__edge[data-id="flag->record_event"]').waitFor({ state: 'attached' });

    await clearSelection();
    await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Set a state' }).click();
    await node('set_state').waitFor();
    await inspector().getByLabel('State', { exact: true }).fill('loyalty_tier');
    await inspector().getByLabel('Value').fill('silver');
    // From the Steps list, which brings the step into view wherever adding steps has panned the canvas.
    await clearSelection();
    await inspector().getByRole('button', { name: 'big', exact: true }).click();
    await inspector().getByLabel('Then go to').selectOption('set_state');
    await inspector().getByLabel('When the condition is').selectOption('false');
    await inspector().getByRole('button', { name: 'Connect', exact: true }).click();
    await inspector().getByText('to set_state (when no)').waitFor();
    await checkPage(page, 'workflow-editor-built');
  });

  it("shows the API's validation problems at the node and the field they name", async () => {
    await inspector().getByLabel('Condition', { exact: true }).fill('trigger.data.amount >');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.getByText(/Not saved: 1 problem\./).waitFor();
    await node('big').getByText('1 problem').waitFor();
    expect(await node('big').getAttribute('aria-label')).toBe('Condition step big, has problems');
    const field = inspector().getByLabel('Condition', { exact: true });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // The save's problem, and the debounced expression preview's once it answers: both may show.
    await inspector().locator('.field-error', { hasText: 'invalid expression' }).first().waitFor();
    await checkPage(page, 'workflow-editor-problems');
    expect(await app.deps.db('automations').where({ operator_id: owner.operatorId }).count('* as n')).toEqual([{ n: '0' }]);

    await field.fill('trigger.data.amount > 100000');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    await page.waitForURL(/\/workflows\/wf_/);
    workflowId = page.url().split('/').pop()!;
    const stored = await app.deps.db('automations').where({ operator_id: owner.operatorId, id: workflowId }).first('nodes', 'edges', 'active');
    expect(stored.nodes.map((item: { id: string; type: string }) => `${item.id}:${item.type}`)).toEqual([
      'deposit:trigger.event',
      'big:condition',
      'flag:action.set_state',
      'record_event:action.record_event',
      'set_state:action.set_state',
    ]);
    expect(stored.edges).toEqual(
      expect.arrayContaining([
        { from: 'big', to: 'flag', when: true },
        { from: 'big', to: 'set_state', when: false },
        { from: 'flag', to: 'record_event' },
      ]),
    );
    expect(stored.active).toBe(true);
  });

  it('test-runs it only after the confirmation, and reads the run with each node and the Temporal link', async () => {
    await page.getByRole('button', { name: 'Test run…' }).click();
    const dialog = page.getByRole('dialog', { name: /Test run/ });
    await dialog.getByText('A test run is live').waitFor();
    expect(await dialog.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Player (external ID)').fill('p-9');
    await dialog.getByLabel('type (required)').fill('deposit');
    await dialog.getByLabel('amount (required)').fill('250000');
    await dialog.getByLabel('currency (required)').fill('EUR');
    await checkPage(page, 'workflow-test-confirm');
    await dialog.getByLabel('I understand this run has real effects').check();
    await dialog.getByRole('button', { name: 'Run now' }).click();

    const run = page.getByRole('region', { name: /^Run run_/ });
    await run.getByText('completed', { exact: true }).first().waitFor({ timeout: 30_000 });
    const steps = run.locator('ol.run-nodes > li');
    expect(await steps.allTextContents()).toEqual([
      expect.stringMatching(/^deposit completed/),
      expect.stringMatching(/^big completed/),
      expect.stringMatching(/^flag completed/),
      expect.stringMatching(/^record_event completed/),
      expect.stringMatching(/^set_state skipped/),
    ]);
    const link = run.getByRole('link', { name: 'Open in the Temporal Web UI' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${TEMPORAL_UI}/namespaces/default/workflows/automation-manual-run_[0-9a-f]+$`));
    await checkPage(page, 'workflow-run');
    const state = await http(`${app.url}/operator-data-api/entities/p-9/state/risk_score`, { token: key });
    expect(state.body.data.value).toBe(80);
  });

  it('is fired by an event while active, and the run shows up in its history', async () => {
    expect(
      (
        await http(`${app.url}/operator-data-api/entities/p-9/events`, {
          token: key,
          body: { eventType: 'transaction', data: { type: 'deposit', amount: 500, currency: 'EUR' } },
        })
      ).status,
    ).toBe(201);
    await page.goto(`/workflows/${workflowId}?tab=runs`);
    const eventRow = page.getByRole('row', { name: /event/ }).filter({ hasText: 'completed' });
    await eventRow.waitFor({ timeout: 30_000 }).catch(async () => {
      await page.reload();
      await eventRow.waitFor({ timeout: 15_000 });
    });
    await eventRow.getByRole('button', { name: /Open run/ }).click();
    const run = page.getByRole('region', { name: /^Run run_/ });
    await run.getByText(/^event run of version 1/).waitFor();
    expect(await run.locator('ol.run-nodes > li').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^set_state completed/), expect.stringMatching(/^flag skipped/)]),
    );
    await checkPage(page, 'workflow-runs');
  });

  it('is exposed over MCP, and a key is allowed to call it', async () => {
    await page.getByRole('tab', { name: 'Design' }).click();
    await page.getByLabel('Expose over MCP').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await page.getByText('MCP tool').locator('code').waitFor();

    await openFromNav(page, 'API keys');
    await page.getByRole('button', { name: 'MCP access of backend' }).click();
    const dialog = page.getByRole('dialog', { name: 'MCP access of “backend”' });
    await dialog.getByLabel('Allow MCP with this key').check();
    await dialog.getByLabel('Only the ones ticked below').check();
    await dialog.getByLabel('Big deposit alert').check();
    await checkPage(page, 'api-keys-mcp');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('row', { name: /backend/ })
      .getByText('1 workflow(s)')
      .waitFor();
    const tools = await http(`${app.url}/mcp-server`, { token: key, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(tools.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['big_deposit_alert']);
  });
});
