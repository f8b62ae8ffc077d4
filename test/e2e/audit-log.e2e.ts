import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { ownerMemberId } from '../helpers/team';
import { newPage } from './browser';
import { checkPage, openFromNav, overflow, signedInBrowser, signIn } from './steps';

/**
 * The audit log: an Owner changes a workflow in the editor and renames an API key, opens the Audit log, finds both
 * changes with who made them, filters by action and by who, downloads the CSV of what is shown, and reads it all on a
 * 390-px phone. A Member has no Audit log.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let ownerName: string;
let backend: { id: string; key: string };
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Audited Casino');
  ownerName = (
    await app.deps
      .db('members')
      .where({ id: await ownerMemberId(app.deps.db, owner.operatorId) })
      .first('display_name')
  ).display_name;
  backend = await createApiKey(app.url, owner, 'backend');
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: backend.key,
    body: {
      name: 'Bonus follow-up',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
      ],
      edges: [{ from: 'start', to: 'wait' }],
    },
  });
  workflowId = created.body.data.id;
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 900 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const rows = () => page.locator('.audit-table tbody tr');
/** Polls until the table shows exactly these actions, newest first (the list reloads on every filter change). */
async function expectActions(expected: string[]): Promise<void> {
  const actions = () => rows().evaluateAll((items) => items.map((item) => item.querySelector('td[data-label="Action"]')?.textContent ?? ''));
  for (let tries = 0; tries < 50 && JSON.stringify(await actions()) !== JSON.stringify(expected); tries += 1) await page.waitForTimeout(100);
  expect(await actions()).toEqual(expected);
}

describe('the audit log', () => {
  it('the Owner changes a workflow in the editor and renames a key', async () => {
    await page.goto(`/workflows/${workflowId}`);
    await page.getByLabel('Description').fill('Waits a moment after a bonus');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await openFromNav(page, 'API keys');
    await page.getByRole('button', { name: 'Rename backend' }).click();
    await page.getByLabel('New label for backend').fill('backend EU');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row', { name: /backend EU/ }).waitFor();
  });

  it('shows both changes with who made them, and filters by action and by who', async () => {
    await openFromNav(page, 'Audit log');
    await expectActions(['api_key.renamed', 'automation.updated', 'automation.created', 'api_key.created']);
    const renamed = rows().nth(0);
    expect(await renamed.locator('td[data-label="Who"]').textContent()).toBe(`${ownerName} member`);
    expect(await renamed.locator('td[data-label="What changed"]').textContent()).toBe('Changed label');
    const updated = rows().nth(1);
    expect(await updated.locator('td[data-label="Who"]').textContent()).toBe(`${ownerName} member`);
    expect(await updated.locator('td[data-label="Target"]').textContent()).toContain(workflowId);
    expect(await updated.locator('td[data-label="What changed"]').textContent()).toBe('Changed description, layout, version; version 2');
    expect(await rows().nth(2).locator('td[data-label="Who"]').textContent()).toBe('Key “backend EU” API key');
    await checkPage(page, 'audit-log');

    await page.getByLabel('Action').selectOption('automation.updated');
    await expectActions(['automation.updated']);
    expect(new URL(page.url()).search).toBe('?action=automation.updated');
    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Who').selectOption(`key:${backend.id}`);
    await expectActions(['automation.created']);
    await page.reload();
    await expectActions(['automation.created']);
    expect(await page.getByLabel('Who').inputValue()).toBe(`key:${backend.id}`);
  });

  it('downloads the CSV of what the filters show', async () => {
    await page.goto('/audit?targetType=api_key');
    await expectActions(['api_key.renamed', 'api_key.created']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-events-.*\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('id,occurredAt,actorKind,actorId,action,targetType,targetId,beforeHash,afterHash,changedFields,summary');
    expect(lines.slice(1).map((line) => line.split(',')[4])).toEqual(['api_key.renamed', 'api_key.created']);
    expect(lines[1]).toContain(`,member,`);
    expect(lines[1]).toContain(`,api_key.renamed,api_key,${backend.id},`);
    expect(lines.join('\n')).not.toContain(backend.key);
  });

  it('is usable on a 390-px phone: events become cards, nothing scrolls sideways', async () => {
    const phone = await newPage(browser, app.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto('/audit');
    await phone.page.locator('.audit-table tbody tr').first().waitFor();
    await phone.page.waitForLoadState('networkidle');
    expect(await overflow(phone.page)).toEqual({ by: 0, culprits: [] });
    await checkPage(phone.page, 'audit-log-phone');
    await phone.context.close();
  });

  it('has no Audit log for a Member', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const other = await newPage(browser, app.url);
    await signIn(other.page, member.email, member.password);
    expect(await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await other.page.goto('/audit');
    await other.page.getByText('Only the Owner and Admins can read the audit log.').waitFor();
    await other.context.close();
  });
});
