import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { checkPage, signedInBrowser } from './steps';

/**
 * The editor's code fields and layout: a condition offers the event's fields and the earlier steps' outputs as
 * completions and previews its value against a sample deposit (or says why it has none), a JSON body keeps the text
 * as typed, new steps land in free room, "Tidy up" lays the graph out and Undo puts it back, and at 1280×800 the graph,
 * scrolled to, is on screen whole.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Code Casino');
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

type Box = { x: number; y: number; width: number; height: number };
const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });
const palette = () => page.getByRole('navigation', { name: 'Add a step' });
const suggestion = (name: RegExp) => page.locator('.cm-tooltip-autocomplete').getByRole('option', { name });
/** The lines of a code field's text, once the field's editor is there. */
async function lines(editor: Locator): Promise<string[]> {
  await editor.locator('.cm-line').first().waitFor();
  return editor.locator('.cm-line').allTextContents();
}
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every step's place on the graph (its React Flow translate), by id. */
async function places(): Promise<Record<string, [number, number]>> {
  const styles = await page
    .locator('.react-flow__node')
    .evaluateAll((items) => items.map((item) => [item.getAttribute('data-id'), item.getAttribute('style')] as [string, string]));
  return Object.fromEntries(
    styles.map(([id, style]) => [
      id,
      /translate\(([-\d.]+)px, ([-\d.]+)px\)/
        .exec(style)!
        .slice(1, 3)
        .map((value) => Math.round(Number(value))) as [number, number],
    ]),
  );
}

/** The steps' boxes on the graph (in graph units, so a zoom does not matter), none of which may overlap another. */
async function expectNoOverlap(): Promise<void> {
  const sizes = await page.locator('.react-flow__node').evaluateAll((items) =>
    items.map((item) => {
      const element = item as unknown as { offsetWidth: number; offsetHeight: number };
      return [item.getAttribute('data-id'), element.offsetWidth, element.offsetHeight] as [string, number, number];
    }),
  );
  const at = await places();
  const boxes = sizes.map(([id, width, height]) => ({ id, box: { x: at[id]![0], y: at[id]![1], width, height } }));
  for (const [index, one] of boxes.entries()) {
    for (const other of boxes.slice(index + 1)) {
      if (overlap(one.box, other.box)) throw new Error(`${one.id} lies on ${other.id}: ${JSON.stringify(one.box)} ${JSON.stringify(other.box)}`);
    }
  }
}

/** Selects a step as the keyboard does (focus, Enter): the graph pans to a step out of view, where a click could not reach. */
async function select(id: string): Promise<void> {
  await node(id).focus();
  await page.keyboard.press('Enter');
  await inspector()
    .getByRole('textbox', { name: 'Step id' })
    .and(page.locator(`[value="${id}"]`))
    .waitFor();
}

async function typeInto(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

describe('the editor’s code fields and layout', () => {
  // The graph is as tall as the window less the top bar (issue #44: sized to end at the window's bottom, it was ~300 px
  // and cut a 4-step journey off): scrolled to, it is on screen whole, every step in it.
  it('shows the whole graph at 1280×800 once scrolled to, the settings form compact above it', async () => {
    await page.goto('/workflows/new?recipe=big-deposit');
    for (const id of ['deposit', 'big', 'flag']) await node(id).waitFor();
    await page.waitForTimeout(300);
    const graph = page.getByRole('region', { name: 'Workflow graph' });
    expect((await graph.boundingBox())!.y).toBeLessThan(800);
    await graph.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(300);
    const canvas = (await graph.boundingBox())!;
    expect(canvas.y).toBeGreaterThanOrEqual(0);
    expect(canvas.y + canvas.height).toBeLessThanOrEqual(801); // scrolled to its end, within a sub-pixel
    expect(canvas.height).toBeGreaterThanOrEqual(680);
    expect(canvas.width).toBeGreaterThan(600);
    for (const id of ['deposit', 'big', 'flag']) {
      const box = (await node(id).boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(canvas.y);
      expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    }
    await checkPage(page, 'workflow-editor-code-1280x800');
    await page.evaluate('window.scrollTo(0, 0)');
  });

  it('offers the event’s template fields and the earlier steps’ outputs as completions', async () => {
    await node('big').click();
    const condition = inspector().getByLabel('Condition', { exact: true });
    await typeInto(condition, 'trigger.data.am');
    await suggestion(/amount/).waitFor();
    // CodeMirror ignores an Enter pressed within 75 ms of the list opening (so fast typists get their new line).
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    expect((await lines(condition)).join('\n')).toBe('trigger.data.amount');
    await page.keyboard.type(' > 100000');
    await page.keyboard.press('Escape');

    await node('flag').click();
    const player = inspector().getByLabel('Player', { exact: true });
    await typeInto(player, '{{ nodes.');
    await suggestion(/^big/).waitFor();
    await page.keyboard.type('big.');
    await suggestion(/result/).waitFor();
    await page.keyboard.press('Escape');
    await typeInto(player, '{{ trigger.entity.externalId }}');
  });

  it('previews a condition against a sample deposit, and says why a broken one has no value', async () => {
    await node('big').click();
    const condition = inspector().getByLabel('Condition', { exact: true });
    const preview = inspector().locator('.code-preview-value');
    await typeInto(condition, 'trigger.data.amount > 100000');
    await preview.getByText('= true').waitFor();
    expect(await inspector().getByLabel('Preview against').inputValue()).toBe('sample');
    await typeInto(condition, 'trigger.data.currency = "GBP"');
    await preview.getByText('= false').waitFor();
    await typeInto(condition, 'trigger.data.amount >');
    await preview.getByText(/EXPRESSION_ERROR: Invalid expression/).waitFor();
    await typeInto(condition, 'trigger.data.amount > 100000');
    await preview.getByText('= true').waitFor();
    await checkPage(page, 'workflow-editor-code-preview');
  });

  it('places new steps in free room beside the selected step, never on another', async () => {
    await node('big').click();
    for (const label of ['Send an email', 'Wait', 'HTTP request', 'Record an event']) {
      await palette().getByRole('button', { name: label, exact: true }).click();
      await page.waitForTimeout(100);
      await node('big').click();
    }
    for (const id of ['send_email', 'delay', 'http_request', 'record_event']) await node(id).waitFor();
    await expectNoOverlap();
  });

  it('lays the whole graph out with “Tidy up”, and Undo puts every step back', async () => {
    await page.waitForTimeout(600);
    const before = await places();
    await page.getByRole('button', { name: 'Tidy up' }).click();
    await page.waitForTimeout(600);
    const tidied = await places();
    expect(tidied).not.toEqual(before);
    await expectNoOverlap();
    await page.getByRole('toolbar', { name: 'Edit history' }).getByRole('button', { name: 'Undo' }).click();
    for (let tries = 0; JSON.stringify(await places()) !== JSON.stringify(before); tries += 1) {
      if (tries > 30) throw new Error(`undo left ${JSON.stringify(await places())}, not ${JSON.stringify(before)}`);
      await page.waitForTimeout(100);
    }
  });

  it('keeps a JSON body as typed: stored when valid, an error while not, the same text after reselecting the step; objects as JSON too', async () => {
    await select('http_request');
    const body = inspector().getByLabel('Body (optional)');
    const typed = ['{', '  "player": "{{ trigger.entity.externalId }}",', '  "amount": 5', '}'];
    await body.fill(typed.join('\n'));
    expect(await lines(body)).toEqual(typed);
    await page.waitForTimeout(500);
    expect(await lines(body)).toEqual(typed);

    await body.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(',');
    await inspector()
      .getByText(/Not valid JSON yet/)
      .waitFor();
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Backspace');
    await inspector()
      .getByText(/Not valid JSON yet/)
      .waitFor({ state: 'detached' });

    await select('big');
    await select('http_request');
    expect(await lines(inspector().getByLabel('Body (optional)'))).toEqual(typed);

    await select('record_event');
    await inspector().getByRole('button', { name: 'Edit as JSON' }).click();
    const fields = inspector().getByLabel('Event fields');
    expect(await lines(fields)).toEqual(['{', '  "subject": "Follow up"', '}']);
    await fields.fill('{ "subject": "Big deposit", "amount": "{{ trigger.data.amount }}" }');
    await inspector().getByRole('button', { name: 'Edit as JSON' }).click();
    await inspector().getByRole('textbox', { name: 'Value 2' }).waitFor();
    expect(await inspector().getByRole('textbox', { name: 'Value 2' }).inputValue()).toBe('{{ trigger.data.amount }}');

    await select('flag');
    for (const target of ['send_email', 'delay', 'http_request', 'record_event']) {
      await inspector().getByLabel('Then go to').selectOption(target);
      await inspector().getByRole('button', { name: 'Connect', exact: true }).click();
    }
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page
      .getByText('Saved as version 1.')
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}; the page says: ${(await page.locator('.notice').allTextContents()).join(' | ')}`);
      });
    const stored = await app.deps.db('automations').where({ operator_id: owner.operatorId }).first('nodes');
    const request = stored.nodes.find((item: { id: string }) => item.id === 'http_request');
    expect(request.params.body).toEqual({ player: '{{ trigger.entity.externalId }}', amount: 5 });
    expect(stored.nodes.find((item: { id: string }) => item.id === 'record_event').params.data).toEqual({
      subject: 'Big deposit',
      amount: '{{ trigger.data.amount }}',
    });
    const condition = stored.nodes.find((item: { id: string }) => item.id === 'big');
    expect(condition.params.expression).toBe('trigger.data.amount > 100000');
  });

  it('previews against the last run of a saved workflow: that run’s trigger payload', async () => {
    // A deposit of 5 takes the condition's "no" branch, which leads nowhere: none of the steps after it runs.
    // The editor moves from /workflows/new to the saved workflow's address after the save's notice.
    await page.waitForURL(/\/workflows\/wf_/);
    const workflowId = page.url().split('/').pop()!;
    const run = await http(`${app.url}/workflows-api/workflows/${workflowId}/test`, {
      method: 'POST',
      token: owner.accessToken,
      body: { entity: { externalId: 'p-small' }, data: { type: 'deposit', amount: 5, currency: 'EUR' } },
    });
    expect([200, 202]).toContain(run.status);
    await page.reload();
    await select('big');
    const against = inspector().getByLabel('Preview against');
    await against.locator('option[value="run"]').waitFor({ state: 'attached' });
    const preview = inspector().locator('.code-preview-value');
    await preview.getByText('= true').waitFor();
    await against.selectOption('run');
    await preview.getByText('= false').waitFor();
  });
});
