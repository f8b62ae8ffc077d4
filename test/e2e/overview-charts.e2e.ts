import type { Browser, Locator, Page } from 'playwright-core';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { dayAgo } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

/**
 * The Overview's charts tell the truth (issue 45), read from what uPlot drew (each bar's box and the plot's box, in
 * canvas pixels, and the value scale, kept on the chart element): no bar chart's value axis starts above zero, no bar
 * is cut by the plot's edge, bar lengths keep their values' ratio; monthly revenue is bars labelled by month; the
 * providers' money is completed deposits and withdrawals apart; no "Time: --" legend; axe clean; 390 px shows every tile.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;

const oldDay = dayAgo(70);

async function send(externalId: string, eventType: string, data: Record<string, unknown>): Promise<void> {
  const response = await http(`${app.url}/operator-data-api/entities/${externalId}/events`, { token: key, body: { eventType, data } });
  if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
}

interface Drawn {
  bars: Array<[series: number, left: number, top: number, width: number, height: number]>;
  plot: { left: number; top: number; width: number; height: number };
  yMin: number;
}

async function drawnOf(chart: Locator): Promise<Drawn> {
  await chart.waitFor();
  return {
    bars: JSON.parse((await chart.getAttribute('data-bars')) ?? '[]'),
    plot: JSON.parse((await chart.getAttribute('data-plot')) ?? '{}'),
    yMin: Number(await chart.getAttribute('data-y-min')),
  };
}

/** Every drawn bar lies inside the plot's box (a pixel of anti-aliasing allowed), and the value axis holds zero. */
function expectWholeFromZero(drawn: Drawn): void {
  expect(drawn.bars.length).toBeGreaterThan(0);
  expect(drawn.yMin).toBeLessThanOrEqual(0);
  const { left, top, width, height } = drawn.plot;
  for (const [, x, y, w, h] of drawn.bars) {
    expect(x).toBeGreaterThanOrEqual(left - 1);
    expect(x + w).toBeLessThanOrEqual(left + width + 1);
    expect(y).toBeGreaterThanOrEqual(top - 1);
    expect(y + h).toBeLessThanOrEqual(top + height + 1);
  }
}

const panelOf = (panel: string) => page.locator('section.panel', { has: page.getByRole('heading', { level: 2, name: panel }) });
const chartIn = (panel: string, count?: number) => panelOf(panel).locator(count === undefined ? '.chart[data-bars]' : `.chart[data-count="${count}"]`);

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Truthful Charts', ['p-1', 'p-2']));
  for (let i = 0; i < 8; i += 1) {
    await send('p-1', 'transaction', {
      type: i < 6 ? 'deposit' : 'withdrawal',
      amount: 1000,
      currency: 'EUR',
      provider: 'Big PSP',
      status: i === 5 ? 'failed' : 'completed',
    });
  }
  await send('p-2', 'transaction', { type: 'deposit', amount: 2500, currency: 'EUR', provider: 'Small PSP' });
  await send('p-2', 'transaction', { type: 'deposit', amount: 700, currency: 'EUR', provider: 'Small PSP', status: 'failed' });
  await send('p-1', 'game_activity', { game_id: 'g-1', game_name: 'Starburst', bet_amount: 900, win_amount: 100, currency: 'EUR' });
  await send('p-2', 'game_activity', { game_id: 'g-2', game_name: 'Unlucky Reels', bet_amount: 100, win_amount: 400, currency: 'EUR' });
  await send('p-2', 'transaction', { type: 'deposit', amount: 4200, currency: 'EUR', provider: 'Small PSP', timestamp: `${oldDay}T10:00:00Z` });
  // Once any test has refreshed the views, every organisation reads them (docs/analytics.md "Which path answers"):
  // refresh now, so these events are in the figures whichever path answers.
  await refreshAnalyticsViews(app.deps.db);
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the Overview', () => {
  it('bar axes start at zero, edge bars are whole, and bar lengths keep their ratio', async () => {
    const providers = await drawnOf(chartIn('Payment providers'));
    expectWholeFromZero(providers);
    expect(providers.yMin).toBe(0);
    const [big, small] = providers.bars.map(([, , , , h]) => h);
    expect(small! / big!).toBeCloseTo(3 / 8, 1);
    const games = await drawnOf(chartIn('Games'));
    expectWholeFromZero(games);
    expect(games.yMin).toBeLessThan(0);
    expectWholeFromZero(await drawnOf(chartIn('Revenue')));
    expect(await page.locator('.u-legend').count()).toBe(0);
    expect(await page.getByText('--', { exact: false }).count()).toBe(0);
  });

  it('the providers table splits completed deposits from completed withdrawals', async () => {
    const row = page.getByRole('row', { name: /Big PSP/ });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual(['Big PSP', '8', '€50.00', '€20.00', '87.5 %']);
    const api = (await http(`${app.url}/analytics-api/analytics/providers`, { token: key })).body.data.providers;
    expect(api.find((p: { provider: string }) => p.provider === 'Small PSP')).toMatchObject({ completed_deposit_amount: 6700, completed_withdrawal_amount: 0 });
    await expect(
      page
        .getByRole('row', { name: /Small PSP/ })
        .getByRole('cell')
        .nth(2)
        .textContent(),
    ).resolves.toBe('€67.00');
  });

  it('says the active players tile counts the last 7 days, and is axe-clean', async () => {
    await page.locator('[data-kpi="Active players (last 7 days)"]').waitFor();
    await checkPage(page, 'overview-charts');
  });

  it('monthly revenue is bars labelled by month, with the imported month holding its deposit', async () => {
    const revenue = panelOf('Revenue');
    await revenue.getByLabel('Period').selectOption('monthly');
    await revenue.getByText('Show the figures as a table').click();
    await revenue.getByRole('columnheader', { name: 'Month' }).waitFor();
    expectWholeFromZero(await drawnOf(chartIn('Revenue', 12)));
    const months = await revenue.locator('tbody tr td:first-child').allTextContents();
    expect(months).toHaveLength(12);
    for (const month of months) expect(month).toMatch(/^[A-Z][a-z]{2,3} \d{4}$/);
    const label = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${oldDay}T00:00:00Z`));
    await expect(
      revenue
        .getByRole('row', { name: new RegExp(`^${label}`) })
        .getByRole('cell')
        .nth(2)
        .textContent(),
    ).resolves.toBe('€42.00');
    expect(await revenue.locator('[role="img"]').getAttribute('aria-label')).toMatch(/per month in EUR/);
  });

  it('on a 390-px phone every tile is on screen and nothing scrolls sideways', async () => {
    const phone = page;
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/');
    await phone.locator('[data-kpi]').first().waitFor();
    await phone.locator('.chart[data-bars]').first().waitFor();
    const tiles = phone.getByRole('list', { name: 'Key figures' }).locator('.tile');
    expect(await tiles.count()).toBe(6);
    for (const tile of await tiles.all()) {
      const box = await tile.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(await tile.isVisible()).toBe(true);
    }
    expect(await overflow(phone)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone, 'overview-charts-phone');
  });
});
