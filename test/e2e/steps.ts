import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { launchBrowser, newPage, screenshot, seriousViolations } from './browser';

export interface Account {
  email: string;
  password: string;
  organisation: string;
}

export const newAccount = (organisation = 'Lucky Reels'): Account => ({
  email: `owner-${randomUUID()}@example.test`,
  password: 'a-long-password',
  organisation,
});

/** Signs up through the dashboard's own form and waits for the overview. */
export async function signUp(page: Page, account: Account): Promise<void> {
  await page.goto('/sign-up');
  await page.getByLabel('Organisation name').fill(account.organisation);
  await page.getByLabel('Your email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** A browser with one page on the dashboard (`options` as `newPage` takes them), signed in as `account` (made through the API beforehand). */
export async function signedInBrowser(
  baseURL: string,
  account: { email: string; password: string },
  options: Parameters<typeof newPage>[2] = {},
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const { page } = await newPage(browser, baseURL, options);
  await signIn(page, account.email, account.password);
  return { browser, page };
}

/** An operator signed up through the API, on the iGaming template, with a `backend` API key and these players (in MT). */
export async function igamingOperator(baseURL: string, name: string, players: string[] = []): Promise<{ owner: TestOperator; key: string }> {
  const owner = await signupOperator(baseURL, name);
  const key = (await createApiKey(baseURL, owner, 'backend')).key;
  await http(`${baseURL}/operator-data-api/settings`, { method: 'PUT', token: key, body: { templateId: 'tpl_igaming' } });
  for (const externalId of players) {
    await http(`${baseURL}/operator-data-api/entities`, { token: key, body: { entityType: 'player', externalId, data: { country: 'MT' } } });
  }
  return { owner, key };
}

/** Opens a page from the main navigation and waits for its heading. */
export async function openFromNav(page: Page, link: string, heading = link): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/**
 * Keeps a screenshot of the page as it is and checks it with axe: the page must have no serious or
 * critical violation. Waits for loading indicators to settle first.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('.loading')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await screenshot(page, name);
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * A session of `account` and its dashboard credential, got through the API the way the dashboard gets them: for a
 * test that sends data beside the browser without creating an API key.
 */
export async function sessionOf(baseUrl: string, account: { email: string; password: string }): Promise<{ accessToken: string; credential: string }> {
  const token = await http(`${baseUrl}/auth/v1/token?grant_type=password`, { body: { email: account.email, password: account.password } });
  const issued = await http(`${baseUrl}/auth/v1/dashboard-credential`, { method: 'POST', token: token.body.access_token });
  if (issued.status !== 200) throw new Error(`dashboard credential: ${issued.status} ${issued.text}`);
  return { accessToken: token.body.access_token, credential: issued.body.credential };
}

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

export const overflow = (target: Page) => target.evaluate(OVERFLOW) as Promise<{ by: number; culprits: string[] }>;
