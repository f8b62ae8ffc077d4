import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { checkPage, openFromNav, signedInBrowser } from './steps';

/**
 * The editor keeps a designer's work: a step is chosen from the Steps list with the keyboard landing in its form, the
 * Delete key asks before a step goes, undo and redo walk the edits back and forth, leaving with unsaved changes asks
 * first, and on a 1280-px screen the graph keeps most of the width.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Careful Casino');
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });
const steps = async () => (await page.locator('.react-flow__node').evaluateAll((items) => items.map((item) => item.getAttribute('data-id')))).sort();

describe('the workflow editor keeps work', () => {
  it('gives the graph most of a 1280-px screen, and the Steps list opens a step’s form with the keyboard in it', async () => {
    await page.goto('/workflows/new?recipe=big-deposit');
    for (const id of ['deposit', 'big', 'flag']) await node(id).waitFor();
    const canvas = await page.getByRole('region', { name: 'Workflow graph' }).boundingBox();
    expect(canvas!.width).toBeGreaterThan(600);
    await inspector().getByRole('button', { name: 'big', exact: true }).click();
    await inspector().getByRole('heading', { name: 'Condition' }).waitFor();
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Condition');
    expect(await node('big').getAttribute('class')).toContain('selected');
    await checkPage(page, 'workflow-editor-1280');
  });

  it('asks before the Delete key removes a step; undo brings it back with its connections, redo takes it away again', async () => {
    const connections = async () => page.locator('.react-flow__edge').count();
    const before = await connections();
    await node('flag').click();
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete step “flag”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await steps()).toEqual(['big', 'deposit', 'flag']);

    await node('flag').click();
    await page.keyboard.press('Delete');
    await dialog.getByRole('button', { name: 'Delete step' }).click();
    await node('flag').waitFor({ state: 'detached' });
    expect(await connections()).toBe(before - 1);

    const history = page.getByRole('toolbar', { name: 'Edit history' });
    await history.getByRole('button', { name: 'Undo' }).click();
    await node('flag').waitFor();
    expect(await connections()).toBe(before);
    await history.getByRole('button', { name: 'Redo' }).click();
    await node('flag').waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Workflow graph' }).click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('Control+z');
    await node('flag').waitFor();
    expect(await steps()).toEqual(['big', 'deposit', 'flag']);
  });

  it('undoes typing in a step’s form as one edit', async () => {
    await node('big').click();
    const condition = inspector().getByLabel('Condition', { exact: true });
    await condition.fill('trigger.data.amount > 5');
    await page.waitForTimeout(600);
    await condition.fill('trigger.data.amount > 50');
    await page.waitForTimeout(600);
    await page.getByRole('toolbar', { name: 'Edit history' }).getByRole('button', { name: 'Undo' }).click();
    for (let tries = 0; (await condition.textContent()) !== 'trigger.data.amount > 5'; tries += 1) {
      if (tries > 50) throw new Error(`undo left the condition at ${await condition.textContent()}`);
      await page.waitForTimeout(100);
    }
  });

  it('asks before leaving with unsaved changes; after saving, leaving does not ask', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await checkPage(page, 'workflow-editor-leave-unsaved');
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/workflows/new');

    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page
      .getByText('Saved as version 1.')
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}; the page says: ${(await page.locator('.notice').allTextContents()).join(' | ')}`);
      });
    await page.waitForURL(/\/workflows\/wf_/);
    await openFromNav(page, 'Team');
    expect(await leave.count()).toBe(0);
  });

  it('keeps where steps were moved: saved without a new version, there again after a reload', async () => {
    await page.goBack();
    await page.waitForURL(/\/workflows\/wf_/);
    const step = node('deposit');
    await step.waitFor();
    const place = async () =>
      (await step.getAttribute('style'))
        ?.match(/translate\(([-\d.]+)px, ([-\d.]+)px\)/)
        ?.slice(1)
        .map(Number);
    await page.waitForLoadState('networkidle');
    await page.getByRole('region', { name: 'Workflow graph' }).scrollIntoViewIfNeeded();
    let box = (await step.boundingBox())!;
    for (let tries = 0; tries < 40; tries += 1) {
      await page.waitForTimeout(100);
      const now = (await step.boundingBox())!;
      if (now.x === box.x && now.y === box.y) break;
      box = now;
    }
    const before = (await place())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 10, box.y + box.height / 2 + 10, { steps: 3 });
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 120, { steps: 8 });
    await page.mouse.up();
    const moved = (await place())!;
    expect(moved).not.toEqual(before);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    await page.reload();
    await step.waitFor();
    expect(await place()).toEqual(moved.map(Math.round));
  });
});
