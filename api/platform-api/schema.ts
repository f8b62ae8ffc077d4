import { z } from 'zod';
import { registry } from '../openapi/registry';

const asObject = { error: 'the body must be a JSON object' };
const role = z.enum(['admin', 'member'], { error: (issue) => (issue.input === undefined ? 'is required' : 'must be admin or member') });

export const CreateInviteBody = z.object(
  {
    email: z
      .email({ error: 'must be a valid email address' })
      .max(254)
      .transform((email) => email.toLowerCase()),
    role,
  },
  asObject,
);

export const PatchMemberBody = z
  .object(
    {
      role: role.optional(),
      status: z.literal('active', { error: 'can only be active (reinstate); use DELETE to revoke' }).optional(),
    },
    asObject,
  )
  .refine((body) => body.role !== undefined || body.status !== undefined, { error: 'role or status is required' });

export const AcceptInviteBody = z.object(
  {
    token: z.string().min(1).max(512),
    password: z.string().min(8, 'must be at least 8 characters').max(1024),
    first_name: z.string().trim().min(1, 'must not be empty').max(100),
    last_name: z.string().trim().min(1, 'must not be empty').max(100),
  },
  asObject,
);

export const IdParams = z.object({ id: z.string() });
export const LookupQuery = z.object({ token: z.string().optional().describe('The raw invite token (inv_…)') });

export const Member = registry.register(
  'Member',
  z.object({
    id: z.uuid(),
    authUserId: z.uuid(),
    email: z.string(),
    displayName: z.string(),
    role: z.enum(['owner', 'admin', 'member']),
    status: z.enum(['active', 'suspended']),
    createdAt: z.string(),
    isSelf: z.boolean(),
    isOwner: z.boolean(),
  }),
);

export const Invite = registry.register(
  'Invite',
  z.object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(['admin', 'member']),
    status: z.enum(['pending', 'revoked']),
    expiresAt: z.string(),
    expired: z.boolean(),
    createdAt: z.string(),
  }),
);

export const TokenGrant = z.object({ id: z.uuid(), expiresAt: z.string(), acceptUrl: z.string(), token: z.string() });
