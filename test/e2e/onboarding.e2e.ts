import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { launchBrowser, newPage } from './browser';
import { checkPage, newAccount, openFromNav, sessionOf, signUp } from './steps';

/**
 * A newcomer's first hour, in a real browser against the real stack: sign up, select the data template,
 * send data and watch the figures change, find a player and erase them, upload a batch, read usage,
 * sign out and back in. Every page visited is screenshotted and checked with axe.
 */
let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const account = newAccount('Golden Spins');

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, app.url));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The operator's API keys, as the database holds them: the dashboard creates none. */
const keysOfAccount = () =>
  app.deps
    .db('api_keys as k')
    .join('members as m', 'm.operator_id', 'k.operator_id')
    .join('users as u', 'u.id', 'm.user_id')
    .where('u.email', account.email)
    .select('k.label');
/** What the tab keeps in storage: the session (localStorage), and no API key anywhere. */
const storedKeys = async (): Promise<string> =>
  (await page.evaluate('JSON.stringify([Object.entries(sessionStorage), Object.entries(localStorage)])')) as string;
/** The API's sums are in minor units (spec 2.13); the dashboard shows euros. */
const money = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);
const tile = (label: string) => page.locator(`[data-kpi="${label}"]`);

describe('a newcomer', () => {
  it('is sent to sign in, and signs up (a refused password shows at its field)', async () => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await checkPage(page, 'sign-in');
    await page.getByRole('link', { name: 'Create an organisation' }).click();
    await page.getByLabel('Organisation name').fill(account.organisation);
    await page.getByLabel('Your email').fill(account.email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByText('must be at least 8 characters', { exact: true }).waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    // Said once, at the field: the notice points there, without the raw code.
    expect(await page.getByText('must be at least 8 characters').count()).toBe(1);
    await page.getByRole('alert').filter({ hasText: 'Correct the field marked below.' }).waitFor();
    expect(await page.getByText('VALIDATION_FAILED').count()).toBe(0);
    await checkPage(page, 'sign-up-refused');

    await signUp(page, account);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    await checkPage(page, 'overview-new');
    const owner = await app.deps
      .db('users as u')
      .join('members as m', 'm.user_id', 'u.id')
      .join('operators as o', 'o.id', 'm.operator_id')
      .where('u.email', account.email)
      .first('m.role', 'o.name');
    expect(owner).toEqual({ role: 'owner', name: 'Golden Spins' });
  });

  it('selects the data template straight away: no key asked for, none created', async () => {
    await openFromNav(page, 'Settings');
    await page.getByText('No template is selected yet').waitFor();
    expect(await page.getByText(/API key is needed|for this tab/).count()).toBe(0);
    await page.getByLabel('Data template').selectOption('tpl_igaming');
    expect(await page.getByLabel(/^Churned after/).inputValue()).toBe('30');
    await page.getByLabel(/^Churned after/).fill('45');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await checkPage(page, 'settings');
    const { credential } = await sessionOf(app.url, account);
    const settings = await http(`${app.url}/operator-data-api/settings`, { token: credential });
    expect(settings.body.data).toMatchObject({ template: { id: 'tpl_igaming' }, churnDays: 45 });
    expect(await keysOfAccount()).toEqual([]);
    expect(await storedKeys()).not.toMatch(/svc_live_|dsh_/);
  });

  it('adds a player by hand, sends events, refreshes the views and sees the KPIs change', async () => {
    await openFromNav(page, 'Players');
    await page.getByRole('heading', { name: 'No players yet' }).waitFor();
    // The template was selected above: the empty state no longer asks for it.
    await page.getByText(/data template\.$/).waitFor();
    expect(await page.getByText('select the data template').count()).toBe(0);
    await page.getByText('Add or update a player by hand').click();
    const form = page.getByRole('form', { name: 'Add a player' });
    await form.getByLabel('External ID').fill('p-1');
    await form.getByRole('button', { name: 'Add field' }).click();
    await form.getByLabel('Field 2').fill('first_name');
    await form.getByLabel('Value 2').fill('Ada');
    await form.getByRole('button', { name: 'Save player' }).click();
    await form.getByText('Player p-1 created.').waitFor();
    await page.getByRole('link', { name: 'p-1' }).waitFor();
    await checkPage(page, 'players-added');
    expect(await keysOfAccount()).toEqual([]);
    const { accessToken, credential } = await sessionOf(app.url, account);
    expect((await http(`${app.url}/api-keys`, { token: accessToken })).body.data).toEqual([]);
    for (const event of [
      { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR', provider: 'Skrill' } },
      { eventType: 'game_activity', data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 200, win_amount: 50, currency: 'EUR' } },
    ]) {
      expect((await http(`${app.url}/operator-data-api/entities/p-1/events`, { token: credential, body: event })).status).toBe(201);
    }
    await openFromNav(page, 'Overview');
    await tile('Total players').filter({ hasText: /^1$/ }).waitFor();
    // Once any organisation has refreshed the views, figures come from them until the next refresh (jest runs other
    // files first in any order): refreshing here makes the figures below the same on either path.
    await page.getByRole('button', { name: 'Refresh figures' }).click();
    await page.getByText('Views refreshed.').waitFor();
    await page.getByText(/Figures from the views refreshed/).waitFor();
    await tile('Deposits').filter({ hasText: '€50.00' }).waitFor();
    const kpis = (await http(`${app.url}/analytics-api/analytics/kpis`, { token: accessToken })).body.data.kpis;
    expect(kpis.total_deposits).toBeGreaterThan(0);
    expect(kpis.total_deposits).toBe(5000);
    expect(await tile('Deposits').textContent()).toBe('€50.00');
    expect(await tile('Gross gaming revenue').textContent()).toBe(money(kpis.total_ggr));
    const games = page.locator('section.panel', { has: page.getByRole('heading', { level: 2, name: 'Games', exact: true }) });
    await games.getByRole('cell', { name: 'Starburst' }).waitFor();
    await page.getByRole('cell', { name: 'Skrill' }).waitFor();
    await checkPage(page, 'overview-with-data');
  });

  it('finds the player: sealed in the list, readable in the detail; erasure needs the typed id', async () => {
    await openFromNav(page, 'Players');
    const row = page.getByRole('row', { name: /p-1/ });
    await row.getByText('encrypted').waitFor();
    expect(await row.textContent()).not.toContain('Ada');
    await checkPage(page, 'players');
    await page.getByRole('link', { name: 'p-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Player p-1' }).waitFor();
    await page.getByText('Ada', { exact: true }).waitFor();
    await page.getByRole('cell', { name: 'transaction' }).waitFor();
    await checkPage(page, 'player-detail');

    await page.getByRole('button', { name: 'Erase player…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase player p-1?' });
    expect(await dialog.getByRole('button', { name: 'Erase for good' }).isDisabled()).toBe(true);
    await checkPage(page, 'player-erase-confirm');
    await dialog.getByLabel('Type p-1 to confirm').fill('p-1');
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByText('Player p-1 was erased').waitFor();
    const entity = await app.deps
      .db('entities')
      .where({ external_id: 'p-1' })
      .join('members as m', 'm.operator_id', 'entities.operator_id')
      .join('users as u', 'u.id', 'm.user_id')
      .where('u.email', account.email)
      .first('entities.data');
    expect(entity.data).toEqual({ _deleted: true });
  });

  it('uploads a batch and follows its progress to the end, with the failed item listed', async () => {
    await openFromNav(page, 'Batch jobs');
    await checkPage(page, 'batch-jobs-empty');
    const items = [
      { entityType: 'player', externalId: 'p-2', data: { country: 'MT' } },
      { entityType: 'croupier', externalId: 'p-3', data: {} },
      { entityType: 'player', externalId: 'p-4', data: { country: 'SE' } },
    ];
    await page.getByLabel('What the file holds').selectOption('entities');
    await page.getByLabel('Or paste the items').fill(JSON.stringify(items));
    await page.getByRole('button', { name: 'Start the job' }).click();
    const job = page.locator('section[aria-label^="Job job_"]');
    await job.getByText('completed', { exact: true }).waitFor({ timeout: 30_000 });
    await job.getByText(/100 % · 2 stored · 1 failed/).waitFor();
    await job.getByRole('cell', { name: 'VALIDATION_FAILED' }).waitFor();
    await checkPage(page, 'batch-jobs');
  });

  it("reads this month's usage against the quota", async () => {
    await openFromNav(page, 'Usage');
    await page.getByRole('progressbar', { name: /Actions: 0 of 10000 used/ }).waitFor();
    await checkPage(page, 'usage');
  });

  it('signs out and back in with the keyboard alone; the data pages need no key afterwards either', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fusage$/);
    expect(await storedKeys()).not.toMatch(/svc_live_|dsh_/);
    await page.goto('/sign-in');
    await page.getByLabel('Email').waitFor();
    // By keyboard only: Tab into the form, type, Enter submits.
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await openFromNav(page, 'Settings');
    const template = page.getByLabel('Data template');
    for (let tries = 0; tries < 50 && (await template.inputValue()) !== 'tpl_igaming'; tries += 1) await page.waitForTimeout(100);
    expect(await template.inputValue()).toBe('tpl_igaming');
    expect(await keysOfAccount()).toEqual([]);
    await context.close();
  });
});

describe('sessions', () => {
  it('renew the dashboard credential silently: with 2-second credentials the data pages keep working, and no key is made', async () => {
    const shortLived = await startTestApp({ DASHBOARD_CREDENTIAL_TTL_SECONDS: '2' });
    try {
      const { context: other, page: tab } = await newPage(browser, shortLived.url);
      const member = newAccount('Short Credentials');
      await signUp(tab, member);
      await openFromNav(tab, 'Settings');
      await tab.getByText('No template is selected yet').waitFor();
      await tab.waitForTimeout(3000);
      await tab.getByLabel('Data template').selectOption('tpl_igaming');
      await tab.getByRole('button', { name: 'Save settings' }).click();
      await tab.getByText('Settings saved.').waitFor();
      await tab.waitForTimeout(3000);
      await openFromNav(tab, 'Players');
      await tab.getByText('Add or update a player by hand').click();
      await tab.getByLabel('External ID', { exact: true }).fill('p-9');
      await tab.getByRole('button', { name: 'Save player' }).click();
      await tab.getByText('Player p-9 created.').waitFor();
      const operator = await shortLived.deps.db('users as u').join('members as m', 'm.user_id', 'u.id').where('u.email', member.email).first('m.operator_id');
      expect(await shortLived.deps.db('api_keys').where({ operator_id: operator.operator_id })).toEqual([]);
      await other.close();
    } finally {
      await shortLived.close();
    }
  });

  it('refresh silently: with 3-second access tokens the dashboard keeps working, rotating its refresh token', async () => {
    const shortLived = await startTestApp({ JWT_ACCESS_TTL_SECONDS: '3' });
    try {
      const { context: other, page: tab } = await newPage(browser, shortLived.url);
      const member = newAccount('Short Sessions');
      await signUp(tab, member);
      await tab.waitForTimeout(4000);
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }).click();
      await tab.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await tab.getByRole('heading', { name: 'No API keys yet' }).waitFor();
      expect(tab.url()).toBe(`${shortLived.url}/keys`);
      const tokens = await shortLived.deps
        .db('refresh_tokens as r')
        .join('members as m', 'm.id', 'r.member_id')
        .join('users as u', 'u.id', 'm.user_id')
        .where('u.email', member.email)
        .select('r.used_at');
      expect(tokens.filter((token) => token.used_at !== null).length).toBeGreaterThanOrEqual(1);
      await other.close();
    } finally {
      await shortLived.close();
    }
  });
});
