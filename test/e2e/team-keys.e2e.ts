import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { newPage } from './browser';
import { checkPage, openFromNav, signedInBrowser } from './steps';

/**
 * The Owner manages API keys (the plaintext shown once and copyable, rename, the last-key guard,
 * revoke, delete) and the team: invites a member who accepts in their own browser and sees only what a
 * Member may do, then suspends and reinstates them.
 */
let app: TestApp;
let browser: Browser;
let owner: TestOperator;
let ownerPage: Page;
let memberContext: BrowserContext;
let memberPage: Page;
const memberEmail = `member-${Date.now()}@example.test`;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Keys and Team Casino');
  ({ browser, page: ownerPage } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const keyRows = () => app.deps.db('api_keys').where({ operator_id: owner.operatorId }).orderBy('created_at').select('label', 'revoked');

describe('API keys', () => {
  let plaintext: string;

  it('creates a key whose plaintext is shown once, copyable, and works', async () => {
    await openFromNav(ownerPage, 'API keys');
    await ownerPage.getByRole('heading', { name: 'No API keys yet' }).waitFor();
    await checkPage(ownerPage, 'api-keys-empty');
    await ownerPage.getByLabel('Label for a new key').fill('Production');
    await ownerPage.getByRole('button', { name: 'Create key' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Your new API key' });
    plaintext = (await dialog.locator('.copy-value').textContent()) ?? '';
    expect(plaintext).toMatch(/^svc_live_[0-9a-f]{64}$/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByText('Copied to the clipboard').waitFor();
    expect(await ownerPage.evaluate('navigator.clipboard.readText()')).toBe(plaintext);
    await checkPage(ownerPage, 'api-key-created');
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    expect((await http(`${app.url}/operator-data-api/templates`, { token: plaintext })).status).toBe(200);
    await ownerPage.reload();
    await ownerPage.getByRole('row', { name: /Production/ }).waitFor();
    expect(await ownerPage.content()).not.toContain(plaintext);
  });

  it('renames it', async () => {
    await ownerPage.getByRole('button', { name: 'Rename Production' }).click();
    await ownerPage.getByLabel('New label for Production').fill('Production EU');
    await ownerPage.getByRole('button', { name: 'Save' }).click();
    await ownerPage.getByRole('row', { name: /Production EU/ }).waitFor();
    expect(await keyRows()).toEqual([{ label: 'Production EU', revoked: false }]);
  });

  it("refuses to revoke the last active key, with the API's words; revokes once there is another; then deletes it", async () => {
    await ownerPage.getByRole('button', { name: 'Revoke Production EU' }).click();
    let dialog = ownerPage.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.getByText('Cannot revoke your last active API key. Create a new key first, then revoke this one.').waitFor();
    await checkPage(ownerPage, 'api-key-last-key-guard');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await ownerPage.getByLabel('Label for a new key').fill('Rotation');
    await ownerPage.getByRole('button', { name: 'Create key' }).click();
    await ownerPage.getByRole('dialog', { name: 'Your new API key' }).getByRole('button', { name: 'I have copied it' }).click();
    await ownerPage.getByRole('button', { name: 'Revoke Production EU' }).click();
    dialog = ownerPage.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await ownerPage
      .getByRole('row', { name: /Production EU/ })
      .getByText('revoked')
      .waitFor();
    expect((await http(`${app.url}/operator-data-api/templates`, { token: plaintext })).status).toBe(401);

    await ownerPage.getByRole('button', { name: 'Delete Production EU' }).click();
    await ownerPage.getByRole('dialog', { name: 'Delete this key for good?' }).getByRole('button', { name: 'Delete key' }).click();
    await ownerPage.getByRole('row', { name: /Production EU/ }).waitFor({ state: 'detached' });
    expect(await keyRows()).toEqual([{ label: 'Rotation', revoked: false }]);
    await checkPage(ownerPage, 'api-keys');
  });
});

describe('the team', () => {
  it('invites a member, whose link is shown to pass on', async () => {
    await openFromNav(ownerPage, 'Team');
    await ownerPage.getByText('No pending invites').waitFor();
    await ownerPage.getByLabel('Email to invite').fill(memberEmail);
    await ownerPage.getByRole('button', { name: 'Send invite' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Invite sent' });
    const link = (await dialog.locator('.copy-value').textContent()) ?? '';
    expect(link).toMatch(/\/accept-invite\?token=inv_/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await ownerPage.getByRole('row', { name: new RegExp(memberEmail) }).waitFor();
    await checkPage(ownerPage, 'team-invited');

    ({ context: memberContext, page: memberPage } = await newPage(browser, app.url));
    await memberPage.goto(`/accept-invite${new URL(link).search}`);
    await memberPage.getByRole('heading', { name: 'Join Keys and Team Casino' }).waitFor();
    await checkPage(memberPage, 'accept-invite');
    await memberPage.getByLabel('First name').fill('Grace');
    await memberPage.getByLabel('Last name').fill('Hopper');
    await memberPage.getByLabel('Choose a password').fill('member-password-1');
    await memberPage.getByRole('button', { name: 'Accept and sign in' }).click();
    await memberPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await memberPage.getByText('Member', { exact: true }).waitFor();
  });

  it('shows a Member only what a Member may do', async () => {
    await openFromNav(memberPage, 'API keys');
    await memberPage.getByRole('row', { name: /Rotation/ }).waitFor();
    expect(await memberPage.getByLabel('Label for a new key').count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /Revoke|Rename|Delete/ }).count()).toBe(0);
    await checkPage(memberPage, 'member-api-keys');
    await openFromNav(memberPage, 'Workflows');
    await memberPage.getByText('An Owner or Admin can create one').waitFor();
    expect(await memberPage.getByRole('link', { name: /New workflow|Use “/ }).count()).toBe(0);
    await openFromNav(memberPage, 'Team');
    await memberPage
      .getByRole('row', { name: /Grace Hopper/ })
      .getByText('(you)')
      .waitFor();
    expect(await memberPage.getByRole('heading', { name: 'Invites' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /Suspend/ }).count()).toBe(0);
    await checkPage(memberPage, 'member-team');
    // The data pages read with the session's dashboard credential: no key is asked for, none can be changed.
    await openFromNav(memberPage, 'Settings');
    await memberPage.getByText('Only the Owner or an Admin can change the data settings.').waitFor();
    expect(await memberPage.getByLabel('Data template').isDisabled()).toBe(true);
    expect(await memberPage.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await openFromNav(memberPage, 'Players');
    expect(await memberPage.getByText('Add or update a player by hand').count()).toBe(0);
    await openFromNav(memberPage, 'Batch jobs');
    await memberPage.getByText('Only the Owner or an Admin can upload a batch.').waitFor();
    expect(await keyRows()).toEqual([{ label: 'Rotation', revoked: false }]);
  });

  it('suspends the member, who is signed out at once; reinstates them; makes them an Admin', async () => {
    await ownerPage.reload();
    await ownerPage.getByRole('button', { name: `Suspend ${memberEmail}` }).click();
    await ownerPage
      .getByRole('dialog', { name: `Suspend ${memberEmail}?` })
      .getByRole('button', { name: 'Suspend' })
      .click();
    await ownerPage
      .getByRole('row', { name: new RegExp(memberEmail) })
      .getByText('suspended')
      .waitFor();

    await openFromNav(memberPage, 'API keys').catch(() => undefined);
    await memberPage.waitForURL(/\/sign-in/);

    await ownerPage.getByRole('button', { name: `Reinstate ${memberEmail}` }).click();
    await ownerPage
      .getByRole('row', { name: new RegExp(memberEmail) })
      .getByText('active')
      .waitFor();
    const patched = ownerPage.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/platform-api/operators/me/members/'),
    );
    await ownerPage.getByLabel(`Role of ${memberEmail}`).selectOption('admin');
    expect((await patched).status()).toBe(200);
    await checkPage(ownerPage, 'team');
    const member = await app.deps.db('members as m').join('users as u', 'u.id', 'm.user_id').where('u.email', memberEmail).first('m.role', 'm.status');
    expect(member).toEqual({ role: 'admin', status: 'active' });
    await memberContext.close();
  });
});
