import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, igamingOperator, overflow, signedInBrowser, signIn } from './steps';

/**
 * Issue #44's minors of the editor, the Runs page and the audit log: a misspelt field or a comparison of a number
 * with text warns under the expression's preview, a money field says it is in minor units (preview and completions);
 * a step added from the keyboard takes the focus into its form and the focus ring stands out (≥ 3:1); a rerun started
 * on the Runs page opens the new run's own page without ever saying "No such run."; the audit log names and links
 * what it lists; at 390 px nothing scrolls sideways.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let workflowId: string;
let failedRunId: string;

beforeAll(async () => {
  app = await startTestApp();
  let key: string;
  ({ owner, key } = await igamingOperator(app.url, 'Minors Casino'));
  // A condition that fails at run time (EXPRESSION_ERROR at `check`): a failed run with a step to rerun from.
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Failing check',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'check', type: 'condition', params: { expression: '$number(trigger.amount) > 1' } },
        { id: 'noted', type: 'action.note', params: { text: 'big' } },
      ],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'noted', when: true },
      ],
    },
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  workflowId = created.body.data.id;
  const run = await http(`${app.url}/workflows-api/workflows/${workflowId}/test`, { token: key, body: { amount: 'many' } });
  failedRunId = run.body.data.id;
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });

async function typeInto(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(one: string, two: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const value = Number(part) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(one), luminance(two)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

type Marked = { setAttribute: (name: string, value: string) => void };
/** Scripts run in the page (strings: the tests compile without the DOM's types). */
const FOCUS_ON_HEADING = `document.activeElement === document.querySelector('[data-new-step-heading]')`;
const FOCUSED_HTML = `(document.activeElement?.outerHTML ?? '').slice(0, 120)`;
const FOCUS_IN_INSPECTOR = `document.querySelector('[data-inspector]').contains(document.activeElement)`;
/** The focused control's box-shadow (the ring) and the first opaque background behind it. */
const RING = `(() => {
  const focused = document.activeElement;
  const shadow = getComputedStyle(focused).boxShadow;
  let background = 'rgba(0, 0, 0, 0)';
  for (let box = focused.parentElement; box && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background); box = box.parentElement) {
    background = getComputedStyle(box).backgroundColor;
  }
  return { shadow, background: /rgba\\(0, 0, 0, 0\\)/.test(background) ? 'rgb(255, 255, 255)' : background };
})()`;
/** From now on, notes whether the page ever says "No such run." (window.sawNotFound). */
const WATCH_NOT_FOUND = `(() => {
  window.sawNotFound = false;
  new MutationObserver(() => {
    if (document.body.textContent.includes('No such run.')) window.sawNotFound = true;
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

describe('the editor’s, the Runs page’s and the audit log’s minors', () => {
  it('warns of a misspelt field and of a number compared with text under the preview, and gives amounts their unit', async () => {
    await page.goto('/workflows/new?recipe=big-deposit');
    await node('big').waitFor();
    await node('big').click();
    const condition = inspector().getByLabel('Condition', { exact: true });
    const preview = inspector().locator('.code-preview-value');
    const warnings = inspector().locator('.code-warnings');

    await typeInto(condition, 'trigger.data.ammount > 100000');
    await preview.getByText('= false').waitFor();
    await warnings
      .getByText('Unknown field trigger.data.ammount: did you mean trigger.data.amount? trigger.data has type, amount, currency,', { exact: false })
      .waitFor();
    // The field names the warnings among its descriptions, so a screen reader hears them with it.
    const describedBy = (await condition.getAttribute('aria-describedby')) ?? '';
    const notesId = await inspector().locator('.code-notes').getAttribute('id');
    expect(describedBy.split(' ')).toContain(notesId);

    await typeInto(condition, 'trigger.data.amount = "5000"');
    await warnings
      .getByText('trigger.data.amount is a number (in minor units: compare with a number such as 5000), compared with text "5000": it is never equal')
      .waitFor();
    await inspector().locator('.code-money').getByText('is an amount in minor units, e.g. 5000 = 50.00 EUR').waitFor();

    await typeInto(condition, 'trigger.data.amount > 100000');
    await preview.getByText('= true').waitFor();
    await warnings.waitFor({ state: 'detached' });
    await checkPage(page, 'editor-minors-preview-warnings');

    // Completions say the unit too.
    await typeInto(condition, 'trigger.data.am');
    await page.locator('.cm-tooltip-autocomplete').getByText('minor units, e.g. 5000 = 50.00 EUR', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('moves the focus into a step added from the keyboard, and its ring stands out at least 3:1', async () => {
    const add = page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Wait', exact: true });
    await add.focus();
    await page.keyboard.press('Enter');
    const heading = inspector().getByRole('heading', { level: 2, name: 'Wait' });
    await heading.waitFor();
    await heading.evaluate((element) => (element as unknown as Marked).setAttribute('data-new-step-heading', ''));
    for (let tries = 0; !(await page.evaluate(FOCUS_ON_HEADING)); tries += 1) {
      if (tries > 20) throw new Error(`focus is on ${await page.evaluate(FOCUSED_HTML)}`);
      await page.waitForTimeout(100);
    }
    // One Tab on is inside the new step's form, not ~20 controls away.
    await page.keyboard.press('Tab');
    await inspector().evaluate((element) => (element as unknown as Marked).setAttribute('data-inspector', ''));
    expect(await page.evaluate(FOCUS_IN_INSPECTOR)).toBe(true);

    // The ring of a focused control, against the page behind it.
    const ring = (await page.evaluate(RING)) as { shadow: string; background: string };
    const colours = ring.shadow.match(/rgba?\([^)]+\)/g) ?? [];
    expect(colours.length).toBeGreaterThanOrEqual(2);
    const outer = colours[colours.length - 1]!;
    expect(contrast(outer, ring.background)).toBeGreaterThanOrEqual(3);
  });

  it('reruns from the Runs page onto the new run’s own page, never showing “No such run.”', async () => {
    await page.goto('/runs?status=failed');
    await page.getByRole('link', { name: `Rerun run ${failedRunId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Rerun from a step' });
    await dialog.waitFor();
    // Watches the page for the not-found notice from here on.
    await page.evaluate(WATCH_NOT_FOUND);
    await dialog.getByRole('button', { name: 'Rerun from check' }).click();
    await page.waitForURL((url) => /^\/runs\/run_[0-9a-f]+$/.test(url.pathname) && !url.pathname.endsWith(failedRunId), { timeout: 30_000 });
    const rerunId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 2, name: new RegExp(`Run ${rerunId}`) }).waitFor();
    await page.getByText(`Rerun of ${failedRunId}`, { exact: false }).waitFor();
    expect(await page.evaluate('window.sawNotFound')).toBe(false);
    await checkPage(page, 'editor-minors-rerun-page');

    // The audit log names the rerun by its workflow and links it to its page; the workflow's test run by its name.
    await page.goto('/audit');
    const rerunRow = page.locator('tr', { has: page.locator(`code:text-is("${rerunId}")`) });
    const link = rerunRow.getByRole('link', { name: 'Run of Failing check' });
    expect(await link.getAttribute('href')).toBe(`/runs/${rerunId}`);
    const testRow = page.locator('tr', { has: page.getByText('automation.test_run_started') }).first();
    expect(await testRow.getByRole('link', { name: 'Failing check' }).getAttribute('href')).toBe(`/workflows/${workflowId}`);
    await checkPage(page, 'editor-minors-audit-names');
  });

  it('shows the run page and the named audit log on a 390-px phone without sideways scrolling', async () => {
    const phone = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto('/audit');
    await phone.page.getByRole('link', { name: 'Run of Failing check' }).waitFor();
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await phone.page.goto(`/runs/${failedRunId}`);
    await phone.page.getByRole('heading', { level: 2, name: new RegExp(`Run ${failedRunId}`) }).waitFor();
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone.page, 'editor-minors-390');
    await phone.page.context().close();
  });
});
