import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

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
  '/compliance',
];

beforeAll(async () => {
  app = await startTestApp();
  ({ owner } = await igamingOperator(app.url, 'Narrow Casino', ['p-1']));
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

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
