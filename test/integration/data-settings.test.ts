import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { http } from '../helpers/http';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('data API protection', () => {
  it('401 UNAUTHORIZED without a key, with an unknown key, a revoked key or a session token', async () => {
    const client = await dataClient(app);
    const url = `${app.url}/functions/v1/operator-data-api/templates`;
    const missing = await http(url);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key' } });
    expect((await http(url, { token: `svc_live_${'0'.repeat(64)}` })).body.error.code).toBe('UNAUTHORIZED');
    expect((await http(url, { token: client.operator.accessToken })).status).toBe(401);

    const second = await http(`${app.url}/api-keys`, { token: client.operator.accessToken, body: { operatorId: client.operator.operatorId } });
    const keys = await http(`${app.url}/api-keys`, { token: client.operator.accessToken });
    const first = keys.body.data.find((key: { id: string }) => key.id !== second.body.data.id);
    await http(`${app.url}/api-keys?id=${first.id}`, { method: 'DELETE', token: client.operator.accessToken });
    const revoked = await http(url, { token: client.key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'API key has been revoked' });
  });
});

describe('templates', () => {
  it('lists the iGaming template with its event types, state keys and PII fields', async () => {
    const client = await dataClient(app, { template: false });
    const response = await client.call('/templates');
    expect(response.status).toBe(200);
    const template = response.body.data.find((t: { id: string }) => t.id === IGAMING_TEMPLATE_ID);
    expect(template.id).toMatch(/^tpl_/);
    expect(Object.keys(template.schema.entity_types)).toEqual(['player']);
    expect(Object.keys(template.schema.event_types).sort()).toEqual([
      'affiliate',
      'block',
      'bonus',
      'game_activity',
      'kyc',
      'session',
      'support',
      'transaction',
    ]);
    expect(template.schema.event_types.transaction.required).toEqual(['type', 'amount', 'currency']);
    expect(template.schema.event_types.game_activity.required).toEqual(['game_id', 'bet_amount']);
    expect(template.schema.state_keys).toEqual(['balance', 'kyc_status', 'risk_score', 'loyalty_tier', 'compliance', 'consent']);
    expect(template.schema.pii_fields.player).toEqual(['first_name', 'last_name', 'email', 'phone', 'date_of_birth']);
  });
});

describe('settings', () => {
  let client: DataClient;
  beforeAll(async () => {
    client = await dataClient(app, { template: false });
  });

  it('defaults before anything is set', async () => {
    const response = await client.call('/settings');
    expect(response.body).toEqual({
      success: true,
      data: { template: null, dataRetentionDays: null, retentionPolicy: null, reportingCurrency: 'EUR', churnDays: 30 },
    });
  });

  it('TEMPLATE_NOT_CONFIGURED for ingestion until a template is selected', async () => {
    for (const [path, body] of [
      ['/entities', { entityType: 'player', externalId: 'p', data: {} }],
      ['/batch/events', [{ externalId: 'p', eventType: 'session', data: {} }]],
    ] as const) {
      const response = await client.call(path, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({ code: 'TEMPLATE_NOT_CONFIGURED', message: 'No template configured; set it with PUT /settings' });
    }
  });

  it.each([
    [{ templateId: 'tpl_nope' }, 'templateId'],
    [{ dataRetentionDays: 0 }, 'dataRetentionDays'],
    [{ dataRetentionDays: 'ten' }, 'dataRetentionDays'],
    [{ retentionPolicy: { entity_events: { hot_days: 29, archive_days: 100 } } }, 'retentionPolicy.entity_events.hot_days'],
    [{ retentionPolicy: { entity_states: { hot_days: 30, archive_days: 1826 } } }, 'retentionPolicy.entity_states.archive_days'],
    [{ retentionPolicy: { entity_events: { hot_days: 400, archive_days: 300 } } }, 'retentionPolicy.entity_events.hot_days'],
    [{ reportingCurrency: 'euro' }, 'reportingCurrency'],
    [{ churnDays: 0 }, 'churnDays'],
    [{ churnDays: 366 }, 'churnDays'],
    [{ churnDays: 7.5 }, 'churnDays'],
    [{ colour: 'blue' }, 'body'],
  ])('400 VALIDATION_FAILED naming the field for %j', async (body, field) => {
    const response = await client.call('/settings', { method: 'PUT', body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('stores template, retention and currency, and returns the settings', async () => {
    const body = {
      templateId: IGAMING_TEMPLATE_ID,
      dataRetentionDays: 3650,
      retentionPolicy: { entity_events: { hot_days: 30, archive_days: 1825 }, entity_states: { hot_days: 90, archive_days: 365 } },
      reportingCurrency: 'GBP',
      churnDays: 14,
    };
    const response = await client.call('/settings', { method: 'PUT', body });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      template: { id: IGAMING_TEMPLATE_ID, name: 'iGaming', version: '1.0.0' },
      dataRetentionDays: 3650,
      retentionPolicy: body.retentionPolicy,
      reportingCurrency: 'GBP',
      churnDays: 14,
    });
    const row = await app.deps.db('operator_settings').where({ operator_id: client.operator.operatorId }).first();
    expect(row).toMatchObject({ template_id: IGAMING_TEMPLATE_ID, data_retention_days: 3650, reporting_currency: 'GBP', churn_days: 14 });
    const cleared = await client.call('/settings', { method: 'PUT', body: { dataRetentionDays: null, retentionPolicy: null } });
    expect(cleared.body.data).toMatchObject({ dataRetentionDays: null, retentionPolicy: null, reportingCurrency: 'GBP', churnDays: 14 });
  });

  it('settings are per operator', async () => {
    const other = await dataClient(app, { template: false });
    expect((await other.call('/settings')).body.data).toMatchObject({ reportingCurrency: 'EUR', churnDays: 30 });
  });
});
