import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, igamingOperator, overflow, signedInBrowser, signIn } from './steps';

/**
 * The editor's graph at 1280×800 (issue #44): new steps placed after the selected one, connected, in view; a canvas
 * tall enough for a 4-step journey; every step still drawn after the first save of a new workflow (it went blank:
 * the nodes in the page, the view fitted in a box that then changed size); a step chosen in the form brought into
 * view; and, on a phone, the editor saying it needs a larger screen.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner } = await igamingOperator(app.url, 'Graph Casino', ['p-1']));
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const STEPS = ['start', 'send_email', 'delay', 'record_event'];
const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const palette = () => page.getByRole('navigation', { name: 'Add a step' });
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });

/** Each step's state in the page: shown (not hidden awaiting a measure), sized, and inside the graph's box. Runs in the page, hence a string. */
const DRAWN = (ids: string[]) => `(() => ${JSON.stringify(ids)}.map((id) => {
  const element = document.querySelector('.react-flow__node[data-id="' + id + '"]');
  if (!element) return id + ': missing';
  const box = element.getBoundingClientRect();
  const canvas = element.closest('.canvas').getBoundingClientRect();
  if (getComputedStyle(element).visibility === 'hidden') return id + ': hidden';
  if (box.width === 0 || box.height === 0) return id + ': no size';
  const inside = box.left >= canvas.left - 1 && box.right <= canvas.right + 1 && box.top >= canvas.top - 1 && box.bottom <= canvas.bottom + 1;
  return inside ? null : id + ': outside the graph (' + Math.round(box.left) + ',' + Math.round(box.top) + ' in ' + Math.round(canvas.left) + '-' + Math.round(canvas.right) + ')';
}).filter(Boolean))()`;

/** Polls until every step is drawn inside the graph (the view is fitted on a timer), failing with those that are not. */
async function expectDrawn(ids: string[]): Promise<void> {
  let problems: string[] = [];
  for (let tries = 0; tries < 30; tries += 1) {
    await page.waitForTimeout(100);
    problems = (await page.evaluate(DRAWN(ids))) as string[];
    if (problems.length === 0) break;
  }
  expect(problems).toEqual([]);
}

/** The zoom of the graph's view, from its CSS transform (`matrix(zoom, 0, 0, zoom, x, y)`). */
const zoom = async () =>
  Number(/matrix\(([^,]+)/.exec((await page.evaluate("getComputedStyle(document.querySelector('.react-flow__viewport')).transform")) as string)?.[1]);

describe('the editor graph', () => {
  it('places each new step after the selected one, connected, and in view; the graph is tall enough for all four', async () => {
    await page.goto('/workflows/new?recipe=blank');
    await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
    await node('start').click();
    for (const label of ['Send an email', 'Wait', 'Record an event']) await palette().getByRole('button', { name: label, exact: true }).click();
    for (const [from, to] of [
      ['start', 'send_email'],
      ['send_email', 'delay'],
      ['delay', 'record_event'],
    ]) {
      await page.locator(`.react-flow__edge[data-id="${from}->${to}"]`).waitFor({ state: 'attached' });
    }
    await expectDrawn(STEPS);
    const canvas = (await page.locator('.canvas').boundingBox())!;
    // calc(100vh - the top bar): 800 less the bar and 24 px of room; it was ~300 px under the form and the palette.
    expect(canvas.height).toBeGreaterThanOrEqual(680);
    expect(await zoom()).toBeGreaterThanOrEqual(0.6);
  });

  it('says a new email goes to the player, and how to alert staff', async () => {
    await node('send_email').click();
    expect(await inspector().getByRole('textbox', { name: 'To' }).textContent()).toBe('{{ player.email }}');
    await inspector()
      .getByText(/A staff alert goes to a fixed address/)
      .waitFor();
  });

  it('still draws every step after the first save, and after the next', async () => {
    await page.getByLabel('Name').fill('Welcome journey');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.waitForURL(/\/workflows\/wf_/);
    await page.getByRole('heading', { level: 1, name: 'Welcome journey' }).waitFor();
    await expectDrawn(STEPS);
    expect(await zoom()).toBeGreaterThanOrEqual(0.6);
    await page.getByLabel('Description').fill('Welcomes a new player');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await expectDrawn(STEPS);
    await checkPage(page, 'editor-graph-saved');
  });

  it('brings a step chosen in the form into view when it is outside it', async () => {
    // Pan the graph far away, so that every step is outside the view, then choose one from the inspector's list.
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    await page.mouse.move(pane.x + 40, pane.y + 40);
    await page.mouse.down();
    await page.mouse.move(pane.x + pane.width - 20, pane.y + pane.height - 20, { steps: 8 });
    await page.mouse.up();
    expect(await page.evaluate(DRAWN(['record_event']))).not.toEqual([]);
    await page.mouse.click(pane.x + 30, pane.y + 30);
    await inspector().getByRole('heading', { name: 'Steps' }).waitFor();
    await inspector().getByRole('button', { name: 'record_event', exact: true }).click();
    await expectDrawn(['record_event']);
  });

  it('on a phone says the editor needs a larger screen, without scrolling sideways', async () => {
    const { context, page: phone } = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone, owner.email, owner.password);
    await phone.goto(page.url());
    await phone.getByText(/The editor needs a larger screen/).waitFor();
    await phone.waitForLoadState('networkidle');
    expect(await overflow(phone)).toEqual({ by: 0, culprits: [] });
    await context.close();
  });

  it('at 1280 px does not show the larger-screen message', async () => {
    expect(await page.getByText(/The editor needs a larger screen/).isVisible()).toBe(false);
  });
});
