/** Examples of the key management document (api-keys/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const operatorId = '3f6c2a8e-5b1d-4c7a-9e2f-8d4b6a1c0e53';
const keyId = 'b7e4d2c1-9a3f-4e8b-a6d5-2c1f0e9b8a74';

export const createKeyBody = { operatorId, label: 'Production' };

export const createdKey = {
  success: true,
  data: {
    id: keyId,
    key: 'svc_live_4f9a1c7e2b8d6035e1a9c4f7b2d8e6a03c5f9b1e7d2a4c8f6b0e3d9a5c1f7e2b',
    label: 'Production',
    createdAt: '2026-03-14T09:26:53.589Z',
  },
};

export const keyList = {
  success: true,
  data: [
    {
      id: keyId,
      operatorId,
      keyHash: '9c1e5b7a3d2f8e6c4a0b9d7f5e3c1a8b6d4f2e0c9a7b5d3f1e8c6a4b2d0f9e7c',
      label: 'Production',
      createdAt: '2026-03-14T09:26:53.589Z',
      lastUsedAt: '2026-03-15T17:02:11.204Z',
      revoked: false,
      mcp_enabled: true,
      mcp_workflow_allowlist: null,
    },
  ],
};

export const renameKeyBody = { id: keyId, label: 'Prod EU' };
export const keyRenamed = { success: true, message: 'Key renamed' };
export const keyRevoked = { success: true, message: 'Key revoked' };

export const mcpSettingsBody = { mcp_enabled: true, mcp_workflow_allowlist: ['wf_7d3e9a1c5b2f4e8a0c6d1b9f3e7a5c2d'] };
export const mcpSettings = { success: true, data: { id: keyId, ...mcpSettingsBody } };
