/** Examples of the identity document (auth/schema.ts); test/integration/openapi-examples.test.ts validates them. */
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

export const signedUp = {
  success: true,
  data: { user, operator: { id: '3f6c2a8e-5b1d-4c7a-9e2f-8d4b6a1c0e53', name: 'Acme Casino' }, session },
};

export const passwordGrantBody = { email: 'owner@acme.test', password: 'a-long-password' };
