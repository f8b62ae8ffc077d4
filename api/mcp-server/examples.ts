/** `tools/list` and its answer (docs/mcp.md), the examples of mcp-server/routes.ts; test/integration/openapi-examples.test.ts validates both. */
export const toolsListRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

export const toolsListResult = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    tools: [
      {
        name: 'kyc_check',
        title: 'KYC check',
        description: 'Checks a player with the KYC supplier and stores kyc_status',
        inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] },
        outputSchema: { type: 'object', properties: { externalId: { type: 'string' }, key: { type: 'string' }, value: {} }, required: ['externalId', 'key'] },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      },
    ],
  },
};
