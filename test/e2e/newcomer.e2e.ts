import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchBrowser, newPage } from './browser';
import { checkPage, newAccount, openFromNav, signUp } from './steps';

/**
 * The README's walkthrough, click for click and with no JSON typed anywhere: from an empty platform to
 * a workflow that ran and changed a player.
 */
let app: TestApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, app.url));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it('goes from sign-up to a running automation, as the README says', async () => {
  await signUp(page, newAccount('Walkthrough Casino'));

  // 1. Settings: the iGaming template (no key asked for: the dashboard uses its session's credential).
  await openFromNav(page, 'Settings');
  await page.getByLabel('Data template').selectOption({ label: 'iGaming (version 1.0.0)' });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();

  // 2. Players: p-1 by hand.
  await openFromNav(page, 'Players');
  await page.getByText('Add or update a player by hand').click();
  await page.getByLabel('External ID', { exact: true }).fill('p-1');
  await page.getByRole('button', { name: 'Save player' }).click();
  await page.getByText('Player p-1 created.').waitFor();

  // 3. Workflows: the recipe, saved.
  await openFromNav(page, 'Workflows');
  await page.getByRole('link', { name: 'Use “Big deposit alert”' }).click();
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await page.getByText('Saved as version 1.').waitFor();

  // 4. A confirmed test run.
  await page.getByRole('button', { name: 'Test run…' }).click();
  const dialog = page.getByRole('dialog', { name: /Test run/ });
  await dialog.getByLabel('Player (external ID)').fill('p-1');
  await dialog.getByLabel('type (required)').fill('deposit');
  await dialog.getByLabel('amount (required)').fill('250000');
  await dialog.getByLabel('currency (required)').fill('EUR');
  await dialog.getByLabel('I understand this run has real effects').check();
  await dialog.getByRole('button', { name: 'Run now' }).click();
  const run = page.getByRole('region', { name: /^Run run_/ });
  await run.locator('h2').getByText('completed', { exact: true }).waitFor({ timeout: 30_000 });
  await checkPage(page, 'walkthrough-run');

  // The player's risk score is now 80.
  await openFromNav(page, 'Players');
  await page.getByRole('link', { name: 'p-1' }).click();
  await page
    .getByRole('row', { name: /risk_score/ })
    .getByText('80', { exact: true })
    .waitFor();
  await checkPage(page, 'walkthrough-player');
});
