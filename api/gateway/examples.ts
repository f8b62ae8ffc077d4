/** Examples of `POST /gateway` (gateway/routes.ts); test/integration/openapi-examples.test.ts validates them. */
export const gatewayBody = { connectionId: 'conn_5e8b2d7f1a4c9e3b6d0f8a2c7e5b1d94', operation: 'kyc.status', params: { playerId: 'p-42' } };

export const gatewayResult = { success: true, data: { playerId: 'p-42', status: 'approved' }, latencyMs: 48 };

export const gatewayCall = {
  success: true,
  data: {
    callId: 'gwc_8c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
    state: 'answered',
    connectionId: 'conn_5e8b2d7f1a4c9e3b6d0f8a2c7e5b1d94',
    operation: 'verification.start',
    method: 'POST',
    createdAt: '2026-11-24T10:15:00.000Z',
    finishedAt: '2026-11-24T10:15:00.412Z',
    outcome: { ok: true, status: 201, data: { verificationId: 'ver_1', status: 'pending' }, message: null, latencyMs: 405 },
    error: null,
  },
};
