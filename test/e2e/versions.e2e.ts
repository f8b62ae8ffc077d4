import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, signedInBrowser, signIn } from './steps';

/**
 * A designer edits an automation twice, compares its first and third versions side by side on the Versions tab, and
 * restores the first: the editor then shows version 4 with version 1's steps. The comparison also reads on a phone.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Versioned Casino');
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });
/** Opens the condition's form from the Steps list, whatever the canvas shows at the moment. */
const openCondition = async () => {
  await inspector().getByRole('button', { name: 'big', exact: true }).click();
  await inspector().getByLabel('Condition', { exact: true }).waitFor();
};
const versionsPanel = () => page.getByRole('tabpanel', { name: 'Versions' });
const save = async (version: number) => {
  await page.getByRole('button', { name: version === 1 ? 'Save workflow' : 'Save changes' }).click();
  await page.getByText(`Saved as version ${version}.`).waitFor();
};

/** How far the page is wider than the screen; runs in the page, hence a string. */
const SIDEWAYS = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';

describe('versions in the dashboard', () => {
  it('keeps a version per save: the recipe saved, then its condition, then its name changed', async () => {
    await page.goto('/workflows/new?recipe=big-deposit');
    await node('big').waitFor();
    await save(1);
    await page.waitForURL(/\/workflows\/wf_/);
    workflowId = page.url().split('/').pop()!;

    await openCondition();
    await inspector().getByLabel('Condition', { exact: true }).fill('trigger.data.amount > 250000');
    await save(2);
    await page.getByRole('form', { name: 'Workflow settings' }).getByLabel('Name', { exact: true }).fill('Huge deposit alert');
    await save(3);
    const stored = await app.deps.db('automation_versions').where({ automation_id: workflowId }).orderBy('version').select('version', 'definition');
    expect(stored.map((row: any) => [row.version, row.definition.name, row.definition.nodes[1].params.expression])).toEqual([
      [1, 'Big deposit alert', 'trigger.data.amount > 100000'],
      [2, 'Big deposit alert', 'trigger.data.amount > 250000'],
      [3, 'Huge deposit alert', 'trigger.data.amount > 250000'],
    ]);
  });

  it('compares versions 1 and 3 side by side, the changed step and its param marked on both sides', async () => {
    await page.getByRole('tab', { name: 'Versions' }).click();
    const list = versionsPanel().getByRole('table');
    await list.getByText('3 versions, newest first').waitFor();
    // Who saved each, by name (issue 44), and when to the second.
    // Sign-up names the Owner by the email's local part (members.display_name).
    expect(await list.getByText(`by ${owner.email.split('@')[0]}`).count()).toBe(3);
    expect(await list.locator('tbody tr').first().textContent()).toMatch(/\d{2}:\d{2}:\d{2}/);
    await list.getByLabel('Compare version 1').check();
    await list.getByLabel('Compare version 3').check();
    const diff = page.getByRole('region', { name: 'Version 1 → version 3' });
    // The name changed, and the MCP tool name that follows it.
    await diff.getByText('1 step changed, 2 settings changed.').waitFor();
    const columns = diff.locator('.version-column');
    expect(await columns.count()).toBe(2);
    const [left, right] = [columns.nth(0), columns.nth(1)];
    expect(await left.locator('[data-step="big"]').getAttribute('data-mark')).toBe('changed');
    expect(await right.locator('[data-step="big"]').getAttribute('data-mark')).toBe('changed');
    await left.locator('.version-param-before', { hasText: 'trigger.data.amount > 100000' }).waitFor();
    await right.locator('.version-param-after', { hasText: 'trigger.data.amount > 250000' }).waitFor();
    expect(await right.locator('[data-step="flag"]').getAttribute('data-mark')).toBe('same');
    const nameChange = diff.getByRole('listitem').filter({ hasText: /^name:/ });
    expect([await nameChange.locator('del').innerText(), await nameChange.locator('ins').innerText()]).toEqual(['Big deposit alert', 'Huge deposit alert']);
    const leftBox = (await left.boundingBox())!;
    const rightBox = (await right.boundingBox())!;
    expect(rightBox.x).toBeGreaterThan(leftBox.x + leftBox.width - 1);
    expect(Math.abs(rightBox.y - leftBox.y)).toBeLessThan(2);
    expect(await page.evaluate(SIDEWAYS)).toBe(0);
    await checkPage(page, 'versions-diff-1280');
  });

  it('reads on a 390-px phone without scrolling sideways', async () => {
    const phone = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto(`/workflows/${workflowId}?tab=versions`);
    await phone.page.getByLabel('Compare version 1').check();
    await phone.page.getByLabel('Compare version 3').check();
    await phone.page.getByRole('region', { name: 'Version 1 → version 3' }).locator('.version-column').nth(1).waitFor();
    await phone.page.waitForLoadState('networkidle');
    expect(await phone.page.evaluate(SIDEWAYS)).toBe(0);
    await checkPage(phone.page, 'versions-diff-390');
    await phone.context.close();
  });

  it('restores version 1 after a confirmation: the editor shows version 4 with version 1’s steps', async () => {
    await versionsPanel().getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await app.deps.db('automations').where({ id: workflowId }).first('version')).version).toBe(3);

    await versionsPanel().getByRole('button', { name: 'Restore version 1' }).click();
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    await page.getByText(/^Version 4/).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Big deposit alert' }).waitFor();
    await openCondition();
    expect(await inspector().getByLabel('Condition', { exact: true }).innerText()).toBe('trigger.data.amount > 100000');
    const stored = await app.deps.db('automations').where({ id: workflowId }).first('version', 'name', 'nodes');
    const first = await app.deps.db('automation_versions').where({ automation_id: workflowId, version: 1 }).first('definition');
    expect(stored).toMatchObject({ version: 4, name: 'Big deposit alert', nodes: first.definition.nodes });
    const restoredBy = await app.deps.db('automation_versions').where({ automation_id: workflowId, version: 4 }).first('created_by');
    expect(restoredBy.created_by).toMatch(/^member:/);
  });
});
