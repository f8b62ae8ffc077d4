/** Examples of `POST /gateway` (gateway/routes.ts); test/integration/openapi-examples.test.ts validates them. */
export const gatewayBody = { connectionId: 'conn_5e8b2d7f1a4c9e3b6d0f8a2c7e5b1d94', operation: 'kyc.status', params: { playerId: 'p-42' } };

export const gatewayResult = { success: true, data: { playerId: 'p-42', status: 'approved' }, latencyMs: 48 };
