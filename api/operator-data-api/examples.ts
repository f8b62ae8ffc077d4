import { IGAMING_TEMPLATE } from '../../core/templates';

/** Examples of the data ingestion document (operator-data-api/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const entityId = 'ent_9b3f7c1e5a2d8f4b6c0e9a7d3f1b5c2e';
const jobId = 'job_3f9c0e7a1d5b8f2c6e4a0d9b7f3c1e5a';
const identity = { id: entityId, externalId: 'p-42', entityType: 'player' };

export const templates = { success: true, data: [{ ...IGAMING_TEMPLATE, created_at: '2026-01-01T00:00:00.000Z' }] };

export const settingsBody = {
  templateId: IGAMING_TEMPLATE.id,
  reportingCurrency: 'EUR',
  churnDays: 30,
  retentionPolicy: { entity_events: { hot_days: 90, archive_days: 730 }, entity_states: { hot_days: 365, archive_days: 1825 } },
};

export const settings = {
  success: true,
  data: {
    template: { id: IGAMING_TEMPLATE.id, name: IGAMING_TEMPLATE.name, version: IGAMING_TEMPLATE.version },
    dataRetentionDays: null,
    retentionPolicy: settingsBody.retentionPolicy,
    reportingCurrency: 'EUR',
    churnDays: 30,
  },
};

export const entityBody = {
  entityType: 'player',
  externalId: 'p-42',
  data: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB', status: 'active' },
};
export const entityCreated = { success: true, data: { ...identity, action: 'created' } };
export const entityUpdated = { success: true, data: { ...identity, action: 'updated' } };

export const entity = {
  success: true,
  data: { ...identity, data: entityBody.data, created_at: '2026-01-08T14:03:22.117Z', updated_at: '2026-03-12T08:41:09.562Z' },
};
export const entityErased = { success: true, data: { id: entityId, externalId: 'p-42', deleted: true } };

const deposit = { type: 'deposit', amount: 5000, currency: 'EUR', status: 'completed', provider: 'stripe' };
const eventId = 'eev_4c8e2a6f0b9d3e7a1c5f8b2d6e0a4c9f';

export const eventBody = { eventType: 'transaction', data: deposit };
export const eventRecorded = { success: true, data: { id: eventId } };
export const eventDuplicate = { success: true, data: { id: eventId, action: 'duplicate' } };
export const events = {
  success: true,
  data: [
    { id: eventId, event_type: 'transaction', data: deposit, created_at: '2026-03-12T08:41:09.120Z' },
    {
      id: 'eev_1a5d9f3b7e2c6a0d4f8b3e7c1a5d9f2b',
      event_type: 'session',
      data: { session_id: 's-981', device: 'ios', country: 'GB' },
      created_at: '2026-03-12T08:30:51.774Z',
    },
  ],
  count: 2,
};

const riskScore = { state_key: 'risk_score', value: { score: 12, level: 'low' }, updated_at: '2026-03-12T08:45:00.318Z' };
export const stateBody = { value: riskScore.value };
export const state = { success: true, data: riskScore };
export const states = {
  success: true,
  data: [
    { state_key: 'balance', value: 125.5, updated_at: '2026-03-12T08:41:09.562Z' },
    { state_key: 'kyc_status', value: 'approved', updated_at: '2026-01-09T10:15:00.000Z' },
    riskScore,
    { state_key: 'loyalty_tier', value: 'gold', updated_at: '2026-02-20T18:22:41.003Z' },
  ],
};

export const batchBodies = {
  entities: [
    { entityType: 'player', externalId: 'p-42', data: { first_name: 'Ada', country: 'GB' } },
    { entityType: 'player', externalId: 'p-43', data: { first_name: 'Alan', country: 'GB', status: 'active' } },
  ],
  events: [
    { externalId: 'p-42', eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } },
    { externalId: 'p-42', eventType: 'game_activity', data: { game_id: 'starburst', bet_amount: 2, win_amount: 5, currency: 'EUR' } },
  ],
  states: [
    { externalId: 'p-42', stateKey: 'balance', value: 125.5 },
    { externalId: 'p-42', stateKey: 'kyc_status', value: 'approved' },
  ],
};
export const batchQueued = { success: true, data: { jobId, status: 'queued' } };

export const batchJob = {
  success: true,
  data: {
    id: jobId,
    type: 'batch_ingest_events',
    status: 'completed',
    progress: 100,
    output: { succeeded: 2, failed: 1, errors: [{ index: 2, externalId: 'p-404', code: 'ENTITY_NOT_FOUND', message: 'No entity with externalId p-404' }] },
    error: null,
    created_at: '2026-03-12T09:00:00.412Z',
    completed_at: '2026-03-12T09:00:01.097Z',
  },
};
