import { z } from 'zod';
import { registry } from '../openapi/registry';

const Email = z
  .email()
  .max(254)
  .transform((email) => email.trim().toLowerCase());
const Password = z.string().min(8, 'must be at least 8 characters').max(1024);
const OrganisationName = z.string().trim().min(1).max(200);

/** supabase-js `auth.signUp({ email, password, options: { data } })` sends `options.data` as the body's `data`. */
function hoistOrganisationName(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const body = raw as Record<string, unknown>;
  const data = body.data;
  if (body.organisationName !== undefined || typeof data !== 'object' || data === null) return raw;
  const nested = (data as Record<string, unknown>).organisationName;
  return nested === undefined ? raw : { ...body, organisationName: nested };
}

/** Validates signup: the organisation name at the top level or, as supabase-js sends it, in `data`. */
export const SignupBody = z.preprocess(hoistOrganisationName, z.object({ email: Email, password: Password, organisationName: OrganisationName }));

/** What the document shows for signup: either place for the organisation name (other `data` fields are ignored). */
export const SignupDocument = z.union([
  z.object({ email: Email, password: Password, organisationName: OrganisationName }),
  z.object({ email: Email, password: Password, data: z.object({ organisationName: OrganisationName }) }),
]);

export const PasswordGrantBody = z.object({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) });
export const RefreshGrantBody = z.object({ refresh_token: z.string().min(1).max(512) });
export const TokenQuery = z.object({ grant_type: z.string().max(64).optional().describe('password or refresh_token') });
export const LogoutQuery = z.object({
  scope: z
    .enum(['global', 'local', 'others'])
    .default('global')
    .describe('global (default): every session of the member; local: this one; others: all but this one'),
});

export const SessionUser = z.object({ id: z.string(), email: z.string() });
export const sessionShape = {
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  user: SessionUser,
};
export const Session = registry.register('Session', z.object(sessionShape));

export const AuthUser = registry.register(
  'AuthUser',
  z.object({
    id: z.string(),
    aud: z.literal('authenticated'),
    role: z.literal('authenticated'),
    email: z.string(),
    app_metadata: z.object({
      provider: z.literal('email'),
      providers: z.array(z.string()),
      operator_id: z.string(),
      operator_name: z.string(),
      member_id: z.string(),
      member_role: z.enum(['owner', 'admin', 'member']),
    }),
    user_metadata: z.object({ display_name: z.string(), first_name: z.string().optional(), last_name: z.string().optional() }),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

export const DashboardCredential = registry.register(
  'DashboardCredential',
  z.object({
    credential: z.string().describe('`dsh_…`: send as `Authorization: Bearer` to the data API and `/gateway`'),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().describe('seconds; ask for a new one before then'),
    scope: z.enum(['read', 'read write']).describe("what the member's role allows with it: a Member reads (GET), the Owner and Admins also write"),
  }),
);
