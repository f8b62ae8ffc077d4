/** Examples of the audit trail endpoints (platform-api/auditRoutes.ts); test/integration/openapi-examples.test.ts validates them. */
const event = {
  id: 'aud_5c1e9a7f3b2d4e8a9c0f1b3d5e7a9c2b',
  occurredAt: '2026-11-30T09:14:03.512Z',
  actor: { kind: 'member', id: '1d7f3b9e-5a2c-4e8b-b6d0-9f3a7c1e5b24' },
  action: 'automation.updated',
  targetType: 'automation',
  targetId: 'wf_3f9c0e2a7b1d4c6e8a0b2c4d6e8f0a1b',
  beforeHash: '9b74c9897bac770ffc029102a200c5de9e5e1d5a2b8f1a0c3e7d4b6a9f2e1c0d',
  afterHash: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
  changedFields: ['nodes', 'version'],
  summary: 'Changed nodes, version; version 3',
};

const keyEvent = {
  id: 'aud_0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d',
  occurredAt: '2026-11-30T09:12:41.007Z',
  actor: { kind: 'api_key', id: '7c2e9a41-3b5d-4f6a-8e1c-2d4f6a8b0c13' },
  action: 'api_key.revoked',
  targetType: 'api_key',
  targetId: '3e5a7c9b-1d2f-4a6b-8c0e-5f7a9b1c3d2e',
  beforeHash: 'fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9',
  afterHash: 'baa5a0964d3320fbc0c6a922140453c8513ea24ab8fd0577034804a967248096',
  changedFields: ['revoked'],
  summary: 'Changed revoked',
};

export const auditEvents = {
  success: true,
  data: {
    events: [
      { ...event, targetName: 'Welcome journey', targetDeleted: false },
      { ...keyEvent, targetName: 'backend', targetDeleted: false },
    ],
    count: 57,
    nextCursor: 'MjAyNi0xMS0zMFQwOToxMjo0MS4wMDcxMjNafGF1ZF8wYTJiNGM2ZDhlMGYxYTNiNWM3ZDllMWYzYTViN2M5ZA',
  },
};

export const auditExport = { success: true, data: { exportedAt: '2026-11-30T10:00:00.000Z', events: [event, keyEvent] } };
