import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { checkPage, openFromNav, signedInBrowser } from './steps';

/**
 * An Owner downloads the responsible-gambling gate's evidence of one day from Responsible gambling: the file holds exactly that
 * day's rows of their organisation, in the export's columns (docs/compliance.md "Evidence").
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let other: TestOperator;

const DAY = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);
const at = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY) * DAY - daysAgo * DAY + 9 * 3_600_000);
const row = (operatorId: string, recordedAt: Date, runId: string, rule: string, playerId: string) => ({
  operator_id: operatorId,
  recorded_at: recordedAt,
  automation_id: 'wf_evidence',
  automation_version: 2,
  run_id: runId,
  node_id: 'email',
  action_type: 'action.send_email',
  purpose: 'marketing',
  rule,
  player_id: playerId,
  state_hash: rule === 'allowed' ? 'a'.repeat(64) : 'b'.repeat(64),
});

beforeAll(async () => {
  app = await startTestApp();
  [owner, other] = await Promise.all([signupOperator(app.url, 'Evidence Casino'), signupOperator(app.url, 'Other Casino')]);
  await app.deps
    .db('marketing_evidence')
    .insert([
      row(owner.operatorId, at(1), 'run_yesterday_1', 'self_excluded', 'p-1'),
      row(owner.operatorId, new Date(at(1).getTime() + 60_000), 'run_yesterday_2', 'allowed', 'p-2'),
      row(owner.operatorId, at(3), 'run_earlier', 'cooling_off', 'p-3'),
      row(other.operatorId, at(1), 'run_other', 'allowed', 'p-9'),
    ]);
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('marketing evidence export', () => {
  it("downloads one day's evidence as CSV from Responsible gambling", async () => {
    await openFromNav(page, 'Responsible gambling');
    const section = page.getByRole('region', { name: 'Marketing evidence' });
    await section.getByLabel('From (UTC day)').fill(day(at(1)));
    await section.getByLabel('To (UTC day, included)').fill(day(at(1)));
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download evidence CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`marketing-evidence-${day(at(1))}-${day(at(0))}.csv`);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines).toEqual([
      'recorded_at,workflow_id,workflow_version,run_id,node_id,action_type,purpose,rule,player_id,state_hash',
      `${at(1).toISOString()},wf_evidence,2,run_yesterday_1,email,action.send_email,marketing,self_excluded,p-1,${'b'.repeat(64)}`,
      `${new Date(at(1).getTime() + 60_000).toISOString()},wf_evidence,2,run_yesterday_2,email,action.send_email,marketing,allowed,p-2,${'a'.repeat(64)}`,
    ]);
    await section.getByRole('status').filter({ hasText: 'Downloaded.' }).waitFor();
    await checkPage(page, 'evidence-export');
  });

  it('downloads the same rows as JSON', async () => {
    const section = page.getByRole('region', { name: 'Marketing evidence' });
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download evidence JSON' }).click()]);
    const body = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(body).toMatchObject({ success: true, count: 2, truncated: false });
    expect(body.data.map((item: { run_id: string; rule: string }) => [item.run_id, item.rule])).toEqual([
      ['run_yesterday_1', 'self_excluded'],
      ['run_yesterday_2', 'allowed'],
    ]);
  });
});
