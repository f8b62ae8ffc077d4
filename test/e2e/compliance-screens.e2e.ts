import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { newPage } from './browser';
import { checkPage, igamingOperator, openFromNav, overflow, signIn, signedInBrowser } from './steps';

/**
 * Responsible gambling as a screen (issue #44): an Owner self-excludes a player from the player's compliance panel
 * (confirmed first, on the audit trail), and the next marketing email of a workflow fired for that player is
 * suppressed — its run shows "suppressed · self excluded". The gate's settings save from the dashboard with a bad
 * field named beside its input, the evidence viewer finds the suppression by player and rule, a Member sees it all
 * read-only, and neither page scrolls sideways on a 390-px phone.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Panel Casino', ['p-1', 'p-2']));
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Reload offer',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'offer', type: 'action.send_email', params: { to: '{{ trigger.playerId }}@players.test', subject: 'Reload bonus', text: 'Come back' } },
      ],
      edges: [{ from: 'start', to: 'offer' }],
    },
  });
  expect(created.status).toBe(201);
  workflowId = created.body.data.id;
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const panel = () => page.getByRole('region', { name: 'Responsible gambling' });

describe("a player's compliance panel", () => {
  it('self-excludes the player only once confirmed, and records it in the audit log', async () => {
    await page.goto('/players/p-1');
    await panel().waitFor();
    expect(await panel().locator('[data-fact="selfExcluded"]').textContent()).toBe('No ');
    await panel().getByRole('button', { name: 'Self-exclude…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Self-exclude p-1?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await http(`${app.url}/operator-data-api/entities/p-1/state/compliance`, { token: key })).status).toBe(404);

    await panel().getByRole('button', { name: 'Self-exclude…' }).click();
    await dialog.getByRole('button', { name: 'Self-exclude', exact: true }).click();
    await panel().getByText('Self-exclusion set: marketing to this player is suppressed. Recorded in the audit log.').waitFor();
    await panel().locator('[data-fact="selfExcluded"]').getByText('Yes').waitFor();
    await panel().getByRole('button', { name: 'Lift self-exclusion…' }).waitFor();
    // The compliance state is shown in words, not as JSON among the other states.
    expect(await page.getByRole('region', { name: 'States' }).getByText('compliance').count()).toBe(0);
    await checkPage(page, 'player-compliance');

    const stored = await http(`${app.url}/operator-data-api/entities/p-1/state/compliance`, { token: key });
    expect(stored.body.data.value).toMatchObject({ selfExcluded: true, exclusionSources: ['dashboard'] });
    const audit = await http(`${app.url}/platform-api/operators/me/audit-events?action=player.compliance_updated`, { token: owner.accessToken });
    expect(audit.body.data.events).toEqual([
      expect.objectContaining({
        action: 'player.compliance_updated',
        targetType: 'player',
        targetId: 'p-1',
        actor: expect.objectContaining({ kind: 'member' }),
      }),
    ]);
  });

  it("suppresses the next marketing email of a workflow fired for that player, shown as 'suppressed · self excluded'", async () => {
    const run = await http(`${app.url}/workflows-api/workflows/${workflowId}/test`, { token: key, body: { playerId: 'p-1' } });
    expect(run.body.data).toMatchObject({ status: 'completed', nodes: [{}, { id: 'offer', status: 'completed', suppressed: { rule: 'self_excluded' } }] });
    const runId = run.body.data.id as string;
    await openFromNav(page, 'Runs');
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    expect(await row.locator('.badge-suppressed').textContent()).toBe('suppressed · self excluded');
    await row.getByRole('link', { name: `Open run ${runId}` }).click();
    const step = page.locator('.run-steps li[data-step="offer"]');
    expect(await step.locator('.badge-suppressed').textContent()).toBe('suppressed · self excluded');
  });

  it('sets consent per channel and limits, each confirmed', async () => {
    await page.goto('/players/p-2');
    await panel().waitFor();
    await panel().getByLabel('Email').selectOption('refused');
    await panel().getByRole('button', { name: 'Save consent…' }).click();
    await page.getByRole('dialog', { name: 'Change the consent of p-2?' }).getByRole('button', { name: 'Save consent' }).click();
    await panel().getByText('Consent saved. Recorded in the audit log.').waitFor();
    await panel().getByLabel('Deposit limit (minor units)').fill('50000');
    await panel().getByRole('button', { name: 'Save limits…' }).click();
    await page.getByRole('dialog', { name: 'Change the limits of p-2?' }).getByRole('button', { name: 'Save limits' }).click();
    await panel().getByText('Limits saved. Recorded in the audit log.').waitFor();
    expect((await http(`${app.url}/operator-data-api/entities/p-2/state/consent`, { token: key })).body.data.value).toEqual({ email: false });
    expect((await http(`${app.url}/operator-data-api/entities/p-2/state/compliance`, { token: key })).body.data.value).toMatchObject({ depositLimit: 50000 });
  });
});

describe('the Responsible gambling page', () => {
  it("saves the gate's settings, naming a bad field beside its input", async () => {
    await openFromNav(page, 'Responsible gambling');
    const form = page.getByRole('form', { name: 'Gate settings' });
    await form.getByLabel('Consent: a channel the player refused').waitFor();
    expect(await form.getByLabel('Exclusion: self-excluded, cooling-off and excluded players').isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Add quiet hours' }).click();
    await form.getByLabel('At risk for (days) after an indicator').fill('400');
    await form.getByRole('button', { name: 'Save gate settings' }).click();
    await form.getByText("The gate's settings were not saved.").waitFor();
    const jurisdiction = form.getByLabel('Jurisdiction 1');
    expect(await jurisdiction.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('At risk for (days) after an indicator').getAttribute('aria-invalid')).toBe('true');

    await jurisdiction.fill('gb');
    await form.getByLabel('From 1').selectOption('21');
    await form.getByLabel('At risk for (days) after an indicator').fill('60');
    await form.getByLabel('Harm indicators: a player at risk').uncheck();
    await form.getByRole('button', { name: 'Save gate settings' }).click();
    await form.getByText('Gate settings saved.').waitFor();
    const saved = await http(`${app.url}/workflows-api/compliance/settings`, { token: key });
    expect(saved.body.data).toMatchObject({
      rules: { harmIndicators: false },
      quietHours: [{ jurisdiction: 'GB', from: 21, to: 8 }],
      harm: { atRiskDays: 60 },
    });
    await checkPage(page, 'compliance-settings');
  });

  it('finds the suppression in the evidence viewer by player and rule', async () => {
    const viewer = page.getByRole('region', { name: 'Evidence', exact: true });
    await viewer.locator('[data-evidence-run]').first().waitFor();
    expect(await viewer.locator('[data-evidence-run] .badge-suppressed').first().textContent()).toBe('suppressed · self excluded');
    await viewer.getByLabel('Rule').selectOption('allowed');
    await viewer.getByText('No evidence matches these filters.').waitFor();
    await viewer.getByLabel('Rule').selectOption('self_excluded');
    await viewer.getByLabel('Player (external ID)').fill('p-1');
    await page.waitForURL(/evidence\.player=p-1/);
    await viewer.locator('[data-evidence-run]').first().waitFor();
    expect(await viewer.locator('[data-evidence-run]').count()).toBe(1);
    await viewer.getByLabel('Player (external ID)').fill('p-2');
    await viewer.getByText('No evidence matches these filters.').waitFor();
    await checkPage(page, 'compliance-evidence');
  });

  it('does not scroll sideways on a 390-px phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/compliance?evidence.player=p-1', '/players/p-1']) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('a Member', () => {
  it("sees the gate's settings and the player's panel read-only", async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const { context, page: theirs } = await newPage(browser, app.url, { viewport: { width: 1280, height: 800 } });
    await signIn(theirs, member.email, member.password);
    await theirs.goto('/compliance');
    const form = theirs.getByRole('form', { name: 'Gate settings' });
    await form.getByText("Only the Owner or an Admin can change the gate's settings.").waitFor();
    expect(await form.getByRole('button', { name: 'Save gate settings' }).count()).toBe(0);
    expect(await form.getByLabel('Consent: a channel the player refused').isDisabled()).toBe(true);
    expect(await theirs.getByRole('region', { name: 'Evidence', exact: true }).count()).toBe(0);
    await checkPage(theirs, 'compliance-member');
    await theirs.goto('/players/p-1');
    const theirPanel = theirs.getByRole('region', { name: 'Responsible gambling' });
    await theirPanel.getByText("Only the Owner or an Admin can change a player's exclusion, limits and consent.").waitFor();
    expect(await theirPanel.getByRole('button', { name: 'Lift self-exclusion…' }).count()).toBe(0);
    await context.close();
  });
});
