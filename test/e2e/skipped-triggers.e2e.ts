import type { Browser, Page } from 'playwright-core';
import { lockOperatorDispatch } from '../../db/queries/outboxDispatch';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, overflow, signedInBrowser } from './steps';

/**
 * A designer looks for a run that never came (docs/workflows.md "Skipped triggers"): the workflow's Runs tab lists the
 * event its filter failed on, with the reason and the expression's message, and the triggers run control held back
 * (here throttled), filtered by reason, at 1280 and 390 px; the Runs page says when events wait for the
 * organisation's share (here: its dispatch held, as by another dispatcher, and pending events planted).
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Missing Runs Casino', ['p-3']));
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Sessions by device',
      nodes: [
        { id: 'session', type: 'trigger.event', params: { event: 'entity_event.session', filter: '$number(trigger.data.device) > 1' } },
        { id: 'pause', type: 'action.delay', params: { seconds: 1 } },
      ],
      edges: [{ from: 'session', to: 'pause' }],
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

describe('skipped triggers and dispatch lag in the dashboard', () => {
  it("lists the event a filter failed on, with the reason and the expression's message", async () => {
    const written = await http(`${app.url}/operator-data-api/entities/p-3/events`, { token: key, body: { eventType: 'session', data: { device: 'ios' } } });
    expect(written.status).toBe(201);
    for (let tries = 0; tries < 100; tries += 1) {
      const skips = await http(`${app.url}/workflows-api/workflows/${workflowId}/skipped-triggers`, { token: key });
      if (skips.body.data.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.goto(`/workflows/${workflowId}`);
    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.getByText('Skipped triggers').click();
    const row = page.getByRole('row', { name: /Trigger filter failed/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('EXPRESSION_ERROR');
    expect(await row.textContent()).toContain('$number');
    await checkPage(page, 'workflow-skipped-triggers');
  });

  it('lists the triggers run control held back, with their key and rule, and filters them by reason', async () => {
    const throttled = await http(`${app.url}/workflows-api/workflows`, {
      token: key,
      body: {
        name: 'One deposit a minute',
        nodes: [
          { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
          { id: 'pause', type: 'action.delay', params: { seconds: 1 } },
        ],
        edges: [{ from: 'deposit', to: 'pause' }],
        run_control: { throttle: { limit: 1, period_seconds: 60 } },
      },
    });
    expect(throttled.status).toBe(201);
    const id = throttled.body.data.id;
    for (let amount = 1; amount <= 3; amount += 1) {
      const written = await http(`${app.url}/operator-data-api/entities/p-3/events`, {
        token: key,
        body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } },
      });
      expect(written.status).toBe(201);
    }
    for (let tries = 0; tries < 100; tries += 1) {
      const skips = await http(`${app.url}/workflows-api/workflows/${id}/skipped-triggers`, { token: key });
      if (skips.body.data.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.goto(`/workflows/${id}`);
    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.getByText('Skipped triggers').click();
    await page.getByLabel('Reason').selectOption('throttled');
    const rows = page.getByRole('row', { name: /Throttled/ });
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain('THROTTLED');
      expect(text).toContain('key p-3');
      expect(text).toContain('Over the throttle: 1 trigger per 60 s for this key');
    }
    await checkPage(page, 'workflow-skipped-throttled');

    await page.getByLabel('Reason').selectOption('debounced');
    await page.getByText('None for “Debounced (a later event took its place)” in the last 7 days.').waitFor();
    expect(await page.getByRole('row', { name: /Throttled/ }).count()).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Reason').selectOption('throttled');
    await rows.nth(1).waitFor();
    expect(await overflow(page)).toEqual({ by: 0, culprits: [] });
    await checkPage(page, 'workflow-skipped-throttled-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('says on the Runs page that events wait for the share, and how many', async () => {
    // The organisation's dispatch held (as by another dispatcher), three heard events left pending.
    const held = await app.deps.db.transaction();
    try {
      expect(await lockOperatorDispatch(held, owner.operatorId)).toBe(true);
      await app.deps.db('outbox_events').insert(
        Array.from({ length: 3 }, (_, index) => ({
          id: `evt_lagging${index}`,
          operator_id: owner.operatorId,
          event: 'entity_event.session',
          payload: JSON.stringify({ id: `evt_lagging${index}`, event: 'entity_event.session', operatorId: owner.operatorId, entity: null, data: {} }),
        })),
      );
      // Heard events (the workflow listens to sessions, since before they occurred), older than the notice's 5 s.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await page.goto('/runs');
      const notice = page.getByRole('status').filter({ hasText: 'waiting to reach your workflows' });
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/3 events are waiting to reach your workflows; the oldest for \d+ s/);
      await checkPage(page, 'runs-dispatch-lag');
    } finally {
      await app.deps.db('outbox_events').where({ operator_id: owner.operatorId }).whereLike('id', 'evt_lagging%').delete();
      await held.rollback();
    }
  });
});
