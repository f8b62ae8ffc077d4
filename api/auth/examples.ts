/** Examples of the identity document (auth/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const user = { id: '6a2d9f4e-1c8b-4e3a-b7d5-0f9c2e6a4b18', email: 'owner@acme.test' };

export const session = {
  access_token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2YTJkOWY0ZS0xYzhiLTRlM2EtYjdkNS0wZjljMmU2YTRiMTgiLCJpYXQiOjE3NzM0ODAwMTMsImV4cCI6MTc3MzQ4MzYxM30.7kq3W1mZt0sYq8Hn2cVbR4xP9eLdA6fJ5uGiT1oNwKs',
  token_type: 'bearer',
  expires_in: 3600,
  refresh_token: 'rt_Qm9yZWFsaXMtc2FtcGxlLXJlZnJlc2gtdG9rZW4tMzJieXRlcw',
  user,
};

export const signupBody = { email: 'owner@acme.test', password: 'a-long-password', organisationName: 'Acme Casino' };

const operator = { id: '3f6c2a8e-5b1d-4c7a-9e2f-8d4b6a1c0e53', name: 'Acme Casino' };

export const signedUp = { success: true, data: { user, operator, session }, ...session };

export const authUser = {
  ...user,
  aud: 'authenticated',
  role: 'authenticated',
  app_metadata: {
    provider: 'email',
    providers: ['email'],
    operator_id: operator.id,
    operator_name: operator.name,
    member_id: '9b1e4c7a-2d5f-4a8e-b3c6-1f0d9e8a7b65',
    member_role: 'owner',
  },
  user_metadata: { display_name: 'owner' },
  created_at: '2026-03-14T11:02:17.431Z',
  updated_at: '2026-03-14T11:02:17.431Z',
};

export const passwordGrantBody = { email: 'owner@acme.test', password: 'a-long-password' };

export const dashboardCredential = {
  credential:
    'dsh_eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcCI6IjNmNmMyYThlLTViMWQtNGM3YS05ZTJmLThkNGI2YTFjMGU1MyIsInNpZCI6IjFhMmIzYzRkIn0.q0m3T8cVfXr1Zb6WkYp2Ls9Dn4Hg7Jt5Ue0Ai2Ro8Ks',
  token_type: 'bearer',
  expires_in: 300,
  scope: 'read write',
};
