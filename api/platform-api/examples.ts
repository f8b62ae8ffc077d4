import { session } from '../auth/examples';

/** Examples of the team management document (platform-api/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const memberId = 'c4a8e2f6-0b3d-4e7a-9c1f-5d8b2e6a0f39';
const inviteId = 'e1b5d9f3-7a2c-4e6b-8d0f-4a8c2e6b0d17';
const inviteToken = 'inv_W8xQ2vN5kR7tY1bM4pL9sD3fG6hJ0cZaEuKiOqTwXy4';
const grant = {
  id: inviteId,
  expiresAt: '2026-03-21T10:00:00.000Z',
  acceptUrl: `https://app.acme.test/accept-invite?token=${inviteToken}`,
  token: inviteToken,
};

export const members = {
  success: true,
  data: {
    members: [
      {
        id: '1d7f3b9e-5a2c-4e8b-b6d0-9f3a7c1e5b24',
        authUserId: '6a2d9f4e-1c8b-4e3a-b7d5-0f9c2e6a4b18',
        email: 'owner@acme.test',
        displayName: 'Grace Hopper',
        role: 'owner',
        status: 'active',
        createdAt: '2026-01-05T08:00:00.000Z',
        isSelf: true,
        isOwner: true,
      },
      {
        id: memberId,
        authUserId: '8e2c6a0f-4b9d-4e7a-a1c5-f9b3d7e1a5c0',
        email: 'ada@example.com',
        displayName: 'Ada Lovelace',
        role: 'member',
        status: 'active',
        createdAt: '2026-03-14T10:05:12.000Z',
        isSelf: false,
        isOwner: false,
      },
    ],
    count: 2,
  },
};

export const patchMemberBody = { role: 'admin' };
export const memberUpdated = { success: true, data: { id: memberId, role: 'admin', status: 'active' } };
export const memberSuspended = { success: true, data: { id: memberId, status: 'suspended' } };

export const invites = {
  success: true,
  data: {
    invites: [
      {
        id: inviteId,
        email: 'alan@example.com',
        role: 'member',
        status: 'pending',
        expiresAt: grant.expiresAt,
        expired: false,
        createdAt: '2026-03-14T10:00:00.000Z',
      },
    ],
    count: 1,
  },
};

export const createInviteBody = { email: 'alan@example.com', role: 'member' };
export const inviteCreated = { success: true, data: { ...grant, email: 'alan@example.com', role: 'member' } };
export const inviteResent = { success: true, data: { ...grant, expiresAt: '2026-03-22T09:30:00.000Z' } };
export const inviteRevoked = { success: true, data: { id: inviteId, status: 'revoked' } };
export const inviteLookup = { success: true, data: { valid: true, email: 'alan@example.com', role: 'member', orgName: 'Acme Casino' } };

export const acceptInviteBody = { token: inviteToken, password: 'a-long-password', first_name: 'Alan', last_name: 'Turing' };
export const inviteAccepted = {
  success: true,
  data: { ...session, user: { id: '2b6f0d4a-8e3c-4a7f-9b1d-5c9e3a7f1b42', email: 'alan@example.com' } },
};
