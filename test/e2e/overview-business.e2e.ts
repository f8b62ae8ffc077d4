import type { Browser, Page } from 'playwright-core';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { dayAgo } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

/**
 * The Overview's business tiles (issue 45) show what `GET /business` answers: three players registered today; p-1's
 * first deposit today (1,000), p-2's first deposit 40 days back (3,000, in the previous 30 days) and another today
 * (500, not a first one), p-3 none. So this period: 1 FTD of €10.00 and 2 of 3 converted; the previous: 1 FTD of €30.00.
 * Each tile carries its definition; axe clean; at 390 px every business tile is on screen.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;

async function send(externalId: string, data: Record<string, unknown>): Promise<void> {
  const response = await http(`${app.url}/operator-data-api/entities/${externalId}/events`, { token: key, body: { eventType: 'transaction', data } });
  if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
}

const deposit = (amount: number, extra: Record<string, unknown> = {}) => ({ type: 'deposit', amount, currency: 'EUR', status: 'completed', ...extra });
const tile = (label: string) => page.locator(`[data-business="${label}"]`);
const previousOf = (label: string) => page.locator(`[data-business-previous="${label}"]`);

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Business Tiles', ['p-1', 'p-2', 'p-3']));
  await send('p-1', deposit(1000));
  await send('p-2', deposit(3000, { timestamp: `${dayAgo(40)}T10:00:00Z` }));
  await send('p-2', deposit(500));
  // Once any test has caught the rollups up, every organisation reads them (docs/analytics.md "Which path answers").
  await refreshAnalyticsViews(app.deps.db);
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the Overview business tiles', () => {
  it('equal the API, this period and the previous one, with their definitions', async () => {
    const api = (await http(`${app.url}/analytics-api/analytics/business?range=30d`, { token: key })).body.data;
    expect(api.current).toMatchObject({ registrations: 3, ftd_count: 1, ftd_amount: 1000, converted_players: 2, conversion_rate: 0.6667 });
    expect(api.previous).toMatchObject({ registrations: 0, ftd_count: 1, ftd_amount: 3000, conversion_rate: 0 });
    await tile('First-time deposits').waitFor();
    await expect(tile('First-time deposits').textContent()).resolves.toBe('1');
    await expect(previousOf('First-time deposits').textContent()).resolves.toBe('1');
    await expect(tile('First-deposit amount').textContent()).resolves.toBe('€10.00');
    await expect(previousOf('First-deposit amount').textContent()).resolves.toBe('€30.00');
    await expect(tile('Conversion from registration').textContent()).resolves.toBe('66.67 %');
    await expect(previousOf('Conversion from registration').textContent()).resolves.toBe('0 %');
    const list = page.getByRole('list', { name: 'Business figures' });
    await expect(list.textContent()).resolves.toContain('first completed deposit ever fell in the range');
    await expect(list.textContent()).resolves.toContain('(2 of 3)');
    await checkPage(page, 'overview-business');
  });

  it('at 390 px every business tile is on screen and nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const tiles = page.getByRole('list', { name: 'Business figures' }).locator('.tile');
    await tiles.first().waitFor();
    expect(await tiles.count()).toBe(5);
    for (const each of await tiles.all()) {
      const box = await each.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    await checkPage(page, 'overview-business-phone');
  });
});
