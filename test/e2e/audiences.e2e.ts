import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { runAudiencePass } from '../../db/queries/audiencePass';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { newPage } from './browser';
import { checkPage, igamingOperator, openFromNav, overflow, signedInBrowser, signIn } from './steps';

/**
 * The Audiences page (issue 45, docs/analytics.md "Audiences"): a signed-out visitor is sent to sign in; the Owner
 * creates "Depositors" (at least one deposit) with the form; once the audience pass runs, p-1 (deposit €50.00) and p-2
 * (€10.00) are its members — p-3 never deposited — and the page shows its size, members, size per day and a CSV of
 * them; a Member reads it but has no Edit, Delete or New and the API refuses a Member's change; a day count over the
 * API's 3,650 is refused with the API's own words beside that very input; a second condition "deposits at least
 * €20.00" is version 2 and leaves p-1 alone after the next pass; another organisation sees none of it; axe and 390 px;
 * deleting takes a confirmation and removes the audience with its members.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let audienceId: string;

const audiences = (path = '', token = key) => http(`${app.url}/analytics-api/analytics/audiences${path}`, { token });
const condition = (index: number) => page.getByRole('group', { name: `Condition ${index}`, exact: true });
const tile = (label: string) => page.locator(`[data-audience="${label}"]`);
const row = () => app.deps.db('audiences').where({ id: audienceId }).first();
const memberIds = async () =>
  (await app.deps.db('audience_members as m').join('entities as e', 'e.id', 'm.entity_id').where('m.audience_id', audienceId).pluck('e.external_id')).sort();

async function deposit(externalId: string, amount: number): Promise<void> {
  const response = await http(`${app.url}/operator-data-api/entities/${externalId}/events`, {
    token: key,
    body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR', status: 'completed' } },
  });
  if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
}

/** Audience passes until the cursor reaches the present (what the 30-second Schedule does, now). */
async function pass(): Promise<void> {
  for (;;) if ((await runAudiencePass(app.deps.db)).complete) return;
}

async function membersShown(): Promise<string[]> {
  const table = page.getByRole('region', { name: 'Members' }).getByRole('table');
  await table.waitFor();
  return (await table.locator('tbody tr td:first-child').allTextContents()).sort();
}

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Audience Designers', ['p-1', 'p-2', 'p-3']));
  await deposit('p-1', 5000);
  await deposit('p-2', 1000);
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the Audiences page', () => {
  it('sends a signed-out visitor to sign in, and the API answers 401 without a session', async () => {
    const { context, page: visitor } = await newPage(browser, app.url);
    await visitor.goto('/audiences');
    await visitor.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(visitor.url()).pathname + new URL(visitor.url()).search).toBe('/sign-in?next=%2Faudiences');
    await context.close();
    const refused = await http(`${app.url}/analytics-api/analytics/audiences`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
  });

  it('creates an audience from the form, which waits for the pass', async () => {
    await openFromNav(page, 'Audiences');
    await page.getByRole('region', { name: 'No audiences yet' }).waitFor();
    await page.getByRole('link', { name: 'New audience' }).click();
    await page.getByRole('heading', { level: 1, name: 'New audience' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Depositors');
    await condition(1).getByLabel('Field', { exact: true }).selectOption({ label: 'Number of deposits' });
    await condition(1).getByLabel('Operator', { exact: true }).selectOption({ label: 'is at least' });
    await condition(1).getByLabel('Deposits', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Save audience' }).click();
    await page.getByRole('heading', { level: 1, name: 'Depositors' }).waitFor();
    audienceId = /\/audiences\/(aud_[^/?#]+)$/.exec(page.url())![1]!;
    await page.getByText('Audience saved. Its members come with the next pass, within about a minute.').waitFor();
    await page.getByText('Waiting for the audience pass to judge it over every player').waitFor();
    expect(await tile('Size').textContent()).toBe('—');
    expect(await page.locator('.audience-definition li').allTextContents()).toEqual(['Number of deposits ≥ 1 (all time)']);
    expect(await row()).toMatchObject({
      name: 'Depositors',
      definition: { all: [{ field: 'deposit_count', op: 'gte', value: 1 }] },
      version: 1,
      size: 0,
      evaluated_at: null,
    });
  });

  it('shows the seeded depositors as members once the pass runs, with the size per day and the CSV', async () => {
    await pass();
    await page.locator('[data-audience="Size"]', { hasText: '2' }).waitFor();
    expect(await memberIds()).toEqual(['p-1', 'p-2']);
    expect(await membersShown()).toEqual(['p-1', 'p-2']);
    expect((await audiences(`/${audienceId}`)).body.data).toMatchObject({ size: 2, version: 1 });
    const sizes = page.getByRole('region', { name: 'Size over time' });
    await sizes.locator('[data-chart="bar"][data-count="1"]').waitFor();
    await sizes.getByText('Show the sizes as a table').click();
    expect(await sizes.locator('tbody tr td').allTextContents()).toEqual([expect.any(String), '2', '0', '0']);
    await checkPage(page, 'audience-detail');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`audience-${audienceId}.csv`);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('external_id,entered_at,ftd_day,deposit_count,last_activity_day,ggr,currency');
    const cells = lines.slice(1).map((line) => line.split(','));
    expect(cells.map((line) => [line[0], line[3], line[6]]).sort()).toEqual([
      ['p-1', '1', 'EUR'],
      ['p-2', '1', 'EUR'],
    ]);
  });

  it('lets a Member read the audience but not change it, and the API refuses a Member’s change', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const { context, page: reader } = await newPage(browser, app.url);
    await signIn(reader, member.email, member.password);
    await openFromNav(reader, 'Audiences');
    const listed = reader.getByRole('row', { name: /Depositors/ });
    await listed.waitFor();
    expect((await listed.getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['Depositors', '2', '1']);
    expect(await reader.getByRole('link', { name: 'New audience' }).count()).toBe(0);
    await listed.getByRole('link', { name: 'Depositors' }).click();
    await reader.getByRole('heading', { level: 1, name: 'Depositors' }).waitFor();
    await reader.getByRole('region', { name: 'Members' }).getByRole('table').waitFor();
    expect(await reader.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await context.close();
    expect((await audiences(`/${audienceId}`, member.accessToken)).body.data).toMatchObject({ name: 'Depositors', size: 2 });
    const refused = await http(`${app.url}/analytics-api/analytics/audiences/${audienceId}`, {
      method: 'PUT',
      token: member.accessToken,
      body: { name: 'Mine', definition: { all: [{ field: 'deposit_count', op: 'gte', value: 9 }] } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage audiences' } });
    expect(await row()).toMatchObject({ name: 'Depositors', version: 1 });
  });

  it('shows the API’s refusal of a bad value beside the input it names, and saves nothing', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit “Depositors”' }).waitFor();
    await page.getByRole('button', { name: 'Add a condition' }).click();
    await condition(2).getByLabel('Field', { exact: true }).selectOption({ label: 'Days since first deposit' });
    await condition(2).getByLabel('Operator', { exact: true }).selectOption({ label: 'is at most' });
    const days = condition(2).getByLabel('Days', { exact: true });
    await days.fill('5000');
    await page.getByRole('button', { name: 'Save audience' }).click();
    await page.getByText('The audience was not saved. Correct the field marked below.').waitFor();
    const body = {
      name: 'Depositors',
      definition: {
        all: [
          { field: 'deposit_count', op: 'gte', value: 1 },
          { field: 'ftd_days_ago', op: 'lte', value: 5000 },
        ],
      },
    };
    const api = await http(`${app.url}/analytics-api/analytics/audiences/${audienceId}`, { method: 'PUT', token: key, body });
    expect(api.status).toBe(400);
    expect(api.body.error.code).toBe('VALIDATION_FAILED');
    const problems = (api.body.error.details as Array<{ field: string; message: string }>).filter((detail) => detail.field === 'definition.all.1.value');
    expect(problems).toHaveLength(1);
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    const described = (await days.getAttribute('aria-describedby'))!.split(' ');
    const error = described.find((id) => id.endsWith('-error'))!;
    expect(await page.locator(`[id="${error}"]`).textContent()).toBe(problems[0]!.message);
    expect(await condition(1).locator('[aria-invalid="true"]').count()).toBe(0);
    expect(await row()).toMatchObject({ version: 1, definition: { all: [{ field: 'deposit_count', op: 'gte', value: 1 }] } });
    await checkPage(page, 'audience-edit-refused');
  });

  it('saves a changed definition as version 2, which the next pass applies', async () => {
    await condition(2).getByLabel('Field', { exact: true }).selectOption({ label: 'Deposit amount' });
    await condition(2).getByLabel('Operator', { exact: true }).selectOption({ label: 'is at least' });
    await condition(2).getByLabel('Amount in minor units', { exact: true }).fill('2000');
    await condition(2).getByLabel('Currency', { exact: true }).fill('EUR');
    await condition(2).getByText('= €20.00').waitFor();
    await page.getByRole('button', { name: 'Save audience' }).click();
    await page.getByText('Audience saved as version 2.').waitFor();
    expect(await tile('Version').textContent()).toBe('2');
    expect(await page.locator('.audience-definition li').allTextContents()).toEqual([
      'Number of deposits ≥ 1 (all time)',
      'Deposit amount in EUR ≥ €20.00 (all time)',
    ]);
    expect(await row()).toMatchObject({
      version: 2,
      definition: {
        all: [
          { field: 'deposit_count', op: 'gte', value: 1 },
          { field: 'deposit_amount', op: 'gte', value: 2000, currency: 'EUR' },
        ],
      },
    });
    await page.getByText('Waiting for the audience pass to judge version 2 over every player').waitFor();
    await pass();
    await page.locator('[data-audience="Size"]', { hasText: /^1$/ }).waitFor();
    expect(await memberIds()).toEqual(['p-1']);
    expect(await membersShown()).toEqual(['p-1']);
    await openFromNav(page, 'Audiences');
    const listed = page.getByRole('row', { name: /Depositors/ });
    await listed.waitFor();
    expect((await listed.getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['Depositors', '1', '2']);
    await checkPage(page, 'audiences-list');
  });

  it('shows another organisation none of it', async () => {
    const other = await igamingOperator(app.url, 'Other Casino', ['p-1']);
    const { context, page: outsider } = await newPage(browser, app.url);
    await signIn(outsider, other.owner.email, other.owner.password);
    await openFromNav(outsider, 'Audiences');
    await outsider.getByRole('region', { name: 'No audiences yet' }).waitFor();
    await outsider.goto(`/audiences/${audienceId}`);
    await outsider.getByText('No such audience in this organisation (or it was deleted).').waitFor();
    expect(await outsider.getByRole('region', { name: 'Members' }).count()).toBe(0);
    await context.close();
    const refused = await audiences(`/${audienceId}/members`, other.key);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: `No audience ${audienceId}` } });
    expect((await audiences('', other.key)).body.data.audiences).toEqual([]);
  });

  it('reads on a 390-px phone without sideways scroll: list, audience and form', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading, name] of [
      ['/audiences', 'Audiences', 'audiences-list-phone'],
      [`/audiences/${audienceId}`, 'Depositors', 'audience-detail-phone'],
      [`/audiences/${audienceId}/edit`, 'Edit “Depositors”', 'audience-edit-phone'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await checkPage(page, name);
      expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    }
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('deletes the audience behind a confirmation, with its members', async () => {
    await page.goto(`/audiences/${audienceId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Depositors”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row()).toMatchObject({ name: 'Depositors' });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete audience' }).click();
    await page.getByText('Audience “Depositors” was deleted with its members and size history.').waitFor();
    await page.getByRole('region', { name: 'No audiences yet' }).waitFor();
    expect(await row()).toBeUndefined();
    expect(await app.deps.db('audience_members').where({ audience_id: audienceId }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect((await audiences(`/${audienceId}`)).status).toBe(404);
  });
});
