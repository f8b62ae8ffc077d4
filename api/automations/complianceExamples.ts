/** Examples of the evidence viewer's and the player panel's answers in the OpenAPI document (docs/compliance.md). */
const record = {
  recorded_at: '2026-03-15T09:13:02.004Z',
  workflow_id: 'wf_3f9c2a7e1b5d4c8a9e0f6b2d7c1a5e9f',
  workflow_version: 3,
  run_id: 'run_8a2c6e0f4b9d3a7e1c5f9b3d7a1e5c9f',
  node_id: 'email',
  action_type: 'action.send_email',
  purpose: 'marketing',
  rule: 'self_excluded',
  player_id: 'p-1',
  state_hash: '5d41402abc4b2a76b9719d911017c592e0f1c8a2b7c9d4e6f8a0b1c2d3e4f5a6',
};

export const evidencePage = {
  success: true,
  data: {
    records: [record, { ...record, recorded_at: '2026-03-15T09:12:44.318Z', run_id: 'run_1c5f9b3d7a1e5c9f8a2c6e0f4b9d3a7e', rule: 'allowed' }],
    nextCursor: 'MjAyNi0wMy0xNVQwOToxMjo0NC4zMTgwMDBafDQy',
  },
};

export const playerHarm = {
  success: true,
  data: {
    playerId: 'p-1',
    atRiskUntil: '2026-04-14T08:02:11.517Z',
    indicators: [{ indicator: 'deposit_velocity', firedAt: '2026-03-15T08:02:11.517Z', details: { deposits: 5, windowMinutes: 60 } }],
  },
};
