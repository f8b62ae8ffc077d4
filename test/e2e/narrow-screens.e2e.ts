import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { launchBrowser, newPage } from './browser';
import { checkPage, signIn } from './steps';

/** Every page of the dashboard on a 390-px phone: nothing scrolls sideways (wide tables scroll inside their own box). */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;

const PAGES = [
  '/',
  '/players',
  '/players/p-1',
  '/workflows',
  '/workflows/new?recipe=big-deposit',
  '/connections',
  '/keys',
  '/team',
  '/jobs',
  '/usage',
  '/settings',
];

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Narrow Casino');
  const key = (await createApiKey(app.url, owner, 'backend')).key;
  await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: key, body: { templateId: 'tpl_igaming' } });
  await http(`${app.url}/operator-data-api/entities`, { token: key, body: { entityType: 'player', externalId: 'p-1', data: { country: 'MT' } } });
  browser = await launchBrowser();
  ({ page } = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }));
  await signIn(page, owner.email, owner.password);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/**
 * How far the page is wider than the screen, and the elements that stick out (with their ancestors' boxes), outside any
 * box that scrolls on its own. Runs in the page, hence a string.
 */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const scrollsInside = (element) => {
    for (let box = element.parentElement; box; box = box.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)) return true;
    return false;
  };
  const describe = (element) => {
    const chain = [];
    for (let box = element; box && chain.length < 6; box = box.parentElement) {
      const rect = box.getBoundingClientRect();
      chain.push(box.tagName.toLowerCase() + '.' + [...box.classList].join('.') + ':' + Math.round(rect.left) + '-' + Math.round(rect.right));
    }
    return chain.join(' < ');
  };
  const culprits = [...document.querySelectorAll('body *')]
    .filter((element) => element.getBoundingClientRect().right > width + 1 && !scrollsInside(element))
    .slice(0, 5)
    .map(describe);
  return { by: document.documentElement.scrollWidth - width, culprits };
})()`;

const overflow = (target: Page) => target.evaluate(OVERFLOW);

describe('a 390-px phone', () => {
  it.each(PAGES)('%s does not scroll sideways', async (path) => {
    await page.goto(path);
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    if (path === '/') await checkPage(page, 'phone-overview');
  });

  it.each(['/sign-in', '/sign-up'])('%s, signed out, does not scroll sideways', async (path) => {
    const { context, page: signedOut } = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signedOut.goto(path);
    await signedOut.locator('h1').first().waitFor();
    expect(await overflow(signedOut)).toEqual({ by: 0, culprits: [] });
    await context.close();
  });
});
