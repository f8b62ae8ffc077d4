import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

/**
 * Issue 44, "the player in every run": a designer writes a deposit-triggered email with `{{ player.first_name }}` —
 * the editor completes `player.` with the template's player fields and previews it against a sample player — and the
 * player who deposits gets an email with their first name; the player's page lists that run among its journeys. The
 * shared test worker dispatches the deposit and has no SMTP_URL, so the message is written under DATA_DIR/mail
 * (activities/email), read back here; SMTP delivery of `player.*` templates is covered by
 * test/integration/automations-player.test.ts with the loopback SMTP server.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;
const stamp = Date.now().toString(36);
const firstName = `Grace${stamp}`;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Player Casino'));
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });
const suggestion = (name: RegExp) => page.locator('.cm-tooltip-autocomplete').getByRole('option', { name });

async function typeInto(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

describe('a deposit-triggered email to the player', () => {
  it('completes player.email and player.first_name in the email, previews them against a sample player, and saves', async () => {
    const created = await http(`${app.url}/workflows-api/workflows`, {
      token: key,
      body: {
        name: 'Thank depositors',
        nodes: [
          { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
          { id: 'thanks', type: 'action.send_email', params: { to: 'someone@example.com', subject: 'Thanks', text: 'Thank you for your deposit.' } },
        ],
        edges: [{ from: 'deposit', to: 'thanks' }],
      },
    });
    expect(created.status).toBe(201);
    workflowId = created.body.data.id;
    await page.goto(`/workflows/${workflowId}`);
    await node('thanks').click();
    await inspector().getByRole('heading', { name: 'Send an email' }).waitFor();

    const to = inspector().getByRole('textbox', { name: 'To' });
    await typeInto(to, '{{ player.em');
    await suggestion(/email/).waitFor();
    // CodeMirror ignores an Enter pressed within 75 ms of the list opening (so fast typists get their new line).
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' }}');
    await page.keyboard.press('Escape');
    await inspector().locator('.code-preview-value', { hasText: '= "alex@example.com"' }).waitFor();

    const message = inspector().getByRole('textbox', { name: 'Message' });
    await typeInto(message, 'Dear {{ player.fi');
    await suggestion(/first_name/).waitFor();
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' }}, thank you for your deposit.');
    await page.keyboard.press('Escape');
    await inspector().locator('.code-preview-value', { hasText: '= "Dear Alex, thank you for your deposit."' }).waitFor();
    await inspector().getByText('The sample', { exact: true }).first().click();
    await inspector().getByText('The sample player (player)').first().waitFor();

    await inspector().getByLabel('Subject', { exact: true }).fill('Thank you {{ player.first_name }}');
    await checkPage(page, 'workflow-player-email');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    const stored = await app.deps.db('automations').where({ operator_id: owner.operatorId, id: workflowId }).first('nodes');
    expect(stored.nodes.find((item: { id: string }) => item.id === 'thanks').params).toMatchObject({
      to: '{{ player.email }}',
      subject: 'Thank you {{ player.first_name }}',
      text: 'Dear {{ player.first_name }}, thank you for your deposit.',
    });
  });

  it('a player who deposits gets the email with their first name; the run page shows the step', async () => {
    const email = `grace-${stamp}@example.test`;
    const player = await http(`${app.url}/operator-data-api/entities`, {
      token: key,
      body: { entityType: 'player', externalId: 'p-grace', data: { email, first_name: firstName, country: 'MT' } },
    });
    expect(player.status).toBe(201);
    const deposit = await http(`${app.url}/operator-data-api/entities/p-grace/events`, {
      token: key,
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } },
    });
    expect(deposit.status).toBe(201);

    let run: any;
    for (let tries = 0; tries < 300 && run?.status !== 'completed'; tries += 1) {
      const list = (await http(`${app.url}/workflows-api/workflows/${workflowId}/runs?limit=5`, { token: key })).body.data ?? [];
      if (list[0] && list[0].status !== 'running') run = (await http(`${app.url}/workflows-api/runs/${list[0].id}`, { token: key })).body.data;
      if (run?.status === 'failed') throw new Error(`run failed: ${JSON.stringify(run.error)}`);
      if (run?.status !== 'completed') await page.waitForTimeout(100);
    }
    expect(run.status).toBe('completed');
    const thanks = run.nodes.find((item: any) => item.id === 'thanks');
    expect(thanks.input).toMatchObject({ to: email, subject: `Thank you ${firstName}`, text: `Dear ${firstName}, thank you for your deposit.` });
    expect(thanks.output.delivery).toBe('file');
    const message = readFileSync(path.join(path.resolve(process.env.DATA_DIR!, 'mail'), thanks.output.file), 'utf8');
    expect(message).toContain(email);
    expect(message).toContain(`Thank you ${firstName}`);
    expect(message).toContain(`Dear ${firstName}, thank you for your deposit.`);

    await page.goto(`/runs/${run.id}`);
    await page.locator('[data-step="thanks"]').waitFor();
    await checkPage(page, 'run-player-email');
  });

  it('the player page lists the runs about the player (journeys), each opening its run; nothing scrolls sideways at 390 px', async () => {
    await page.goto('/players/p-grace');
    const journeys = page.getByRole('region', { name: 'Journeys' });
    const row = journeys.locator('tr', { hasText: 'Thank depositors' });
    await row.waitFor();
    await checkPage(page, 'player-journeys');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('link').first().click();
    await page.waitForURL(/\/runs\/run_/);
    await page.locator('[data-step="thanks"]').waitFor();
  });
});
