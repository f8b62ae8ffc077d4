import type { Browser, Page } from 'playwright-core';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { dayAgo } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

/**
 * The Overview's business figures (issue 45) match the API: NGR with its definition's version and bonus cost, the
 * FTD cohort table (a young cohort's D7 and D30 say "not yet", never 0 %), game health, the split by country and the
 * safer-gambling tiles; axe clean; on a 390-px phone every new tile is on screen and nothing scrolls sideways.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;

const money = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);
const at = (daysAgo: number) => `${dayAgo(daysAgo)}T10:00:00Z`;
const analytics = async (path: string) => (await http(`${app.url}/analytics-api/analytics${path}`, { token: key })).body.data;
const panelOf = (panel: string) => page.locator('section.panel', { has: page.getByRole('heading', { level: 2, name: panel }) });

async function send(externalId: string, eventType: string, data: Record<string, unknown>): Promise<void> {
  const response = await http(`${app.url}/operator-data-api/entities/${externalId}/events`, { token: key, body: { eventType, data } });
  if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
}

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Business Figures', ['p-1', 'p-2']));
  await send('p-1', 'transaction', { type: 'deposit', amount: 5000, currency: 'EUR', timestamp: at(3) });
  await send('p-1', 'game_activity', {
    game_id: 'g-1',
    game_name: 'Starburst',
    provider: 'NetEnt',
    bet_amount: 4000,
    win_amount: 1000,
    bonus_bet_amount: 500,
    currency: 'EUR',
    timestamp: at(2),
  });
  await send('p-1', 'transaction', { type: 'bonus', amount: 300, currency: 'EUR', timestamp: at(2) });
  await send('p-2', 'transaction', { type: 'deposit', amount: 2000, currency: 'EUR', timestamp: at(1) });
  await send('p-2', 'game_activity', {
    game_id: 'g-2',
    game_name: 'Book',
    provider: "Play'n GO",
    bet_amount: 1000,
    win_amount: 1500,
    currency: 'EUR',
    timestamp: at(1),
  });
  const saved = await http(`${app.url}/analytics-api/analytics/ngr-definition`, {
    method: 'PUT',
    token: key,
    body: { taxes: [{ jurisdiction: 'MT', rate: 0.05 }], defaultTaxRate: 0.1, otherDeductions: [] },
  });
  if (saved.status !== 200) throw new Error(`definition failed: ${saved.text}`);
  const state = await http(`${app.url}/operator-data-api/entities/p-2/state/compliance`, {
    method: 'PUT',
    token: key,
    body: { value: { selfExcluded: true } },
  });
  if (state.status !== 200) throw new Error(`state failed: ${state.text}`);
  // Once any pass has completed, /cohorts reads the rollups: catch them up so they hold these events (another file's
  // pass may have completed one without them).
  await refreshAnalyticsViews(app.deps.db);
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the Overview’s business figures', () => {
  it('NGR names the version of its definition and matches the API, as does bonus cost', async () => {
    const business = await analytics('/business?range=30d');
    expect(business.ngr.definition_version).toBe(1);
    const ngr = page.locator('[data-business="Net gaming revenue"]');
    await ngr.waitFor();
    expect(await ngr.textContent()).toBe(money(business.ngr.current.ngr));
    expect(await page.locator('[data-business="Bonus cost"]').textContent()).toBe(money(300));
    await page.getByText('GGR − bonus cost − taxes − other deductions, definition version 1').waitFor();
  });

  it('the cohort table matches /cohorts; a young cohort’s D7 and D30 are "not yet"', async () => {
    const cohorts = (await analytics('/cohorts?grain=month')).cohorts as Array<{
      cohort: string;
      players: number;
      ggr_per_player: number;
      ngr_per_player: number;
      retention: { d1: { rate: number | null } };
    }>;
    const current = cohorts.filter((cohort) => cohort.players > 0);
    expect(current.reduce((sum, cohort) => sum + cohort.players, 0)).toBe(2);
    const table = panelOf('First-deposit cohorts');
    await table.getByRole('table').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(cohorts.length);
    const filled = table.locator('tbody tr', { has: page.getByRole('cell', { name: 'not yet' }) });
    expect(await filled.count()).toBeGreaterThan(0);
    const cells = await filled.first().getByRole('cell').allTextContents();
    expect(cells.slice(4, 6)).toEqual(['not yet', 'not yet']);
    const ngrCells = await Promise.all(cohorts.map(async (_, index) => (await table.locator('tbody tr').nth(index).getByRole('cell').allTextContents())[7]));
    expect(ngrCells).toEqual(cohorts.map((cohort) => money(cohort.ngr_per_player)));
    expect(current.some((cohort) => cohort.ngr_per_player !== cohort.ggr_per_player)).toBe(true);
    await table.getByText('definition version 1').waitFor();
  });

  it('game health shows RTP, hold and bonus GGR as the API has them', async () => {
    const health = await analytics('/game-health?range=30d&limit=10');
    const starburst = health.rows.find((row: { name: string }) => row.name === 'Starburst');
    expect(starburst).toMatchObject({ turnover: 4000, rtp: 0.25, hold: 0.75, bonus_ggr: 500, cash_ggr: 2500 });
    const row = panelOf('Game health').getByRole('row', { name: /Starburst/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Starburst', money(4000), '25 %', '75 %', money(2500), money(500), '1']);
  });

  it('the split by country and the safer-gambling tiles match the API; axe is clean', async () => {
    const splits = await analytics('/splits?range=30d&by=country');
    expect(splits.rows).toEqual([expect.objectContaining({ key: 'MT', active_players: 2, deposits: 7000 })]);
    const row = panelOf('By country').getByRole('row', { name: /^MT/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['MT', '2', money(7000), money(splits.rows[0].ggr), '2']);
    expect(await page.locator('[data-safer="Self-excluded"]').textContent()).toBe('1');
    await checkPage(page, 'overview-business-figures');
  });

  it('on a 390-px phone every business and safer-gambling tile is on screen and nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.locator('[data-safer]').first().waitFor();
    const tiles = page.locator('[aria-label="Business figures"] .tile, [aria-label="Safer-gambling figures"] .tile');
    expect(await tiles.count()).toBe(10);
    for (const tile of await tiles.all()) {
      await tile.scrollIntoViewIfNeeded();
      const box = await tile.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    await checkPage(page, 'overview-business-figures-phone');
  });
});
