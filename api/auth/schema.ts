import { z } from 'zod';
import { CodedError, jsonContent, OAuthError, registry } from '../openapi/registry';
import * as examples from './examples';

const Email = z.email().max(254).transform((email) => email.trim().toLowerCase());
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
const SignupDocument = z.union([
  z.object({ email: Email, password: Password, organisationName: OrganisationName }),
  z.object({ email: Email, password: Password, data: z.object({ organisationName: OrganisationName }) }),
]);

export const PasswordGrantBody = z.object({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) });
export const RefreshGrantBody = z.object({ refresh_token: z.string().min(1).max(512) });
export const TokenQuery = z.object({ grant_type: z.string().max(64).optional().describe('password or refresh_token') });
export const LogoutQuery = z.object({
  scope: z.enum(['global', 'local', 'others']).default('global').describe('global (default): every session of the member; local: this one; others: all but this one'),
});

const SessionUser = z.object({ id: z.string(), email: z.string() });
const sessionShape = {
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  user: SessionUser,
};
export const Session = registry.register('Session', z.object(sessionShape));

export const AuthUser = registry.register('AuthUser', z.object({
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
}));

registry.registerPath({
  method: 'post',
  path: '/auth/v1/signup',
  summary: 'Create an organisation (operator) with the caller as its Owner',
  description: 'The session is returned in `data.session` and, as GoTrue returns it, at the top level too (so supabase-js `auth.signUp` signs the caller in).',
  request: { body: jsonContent(SignupDocument, 'New organisation and its Owner', examples.signupBody) },
  responses: {
    201: jsonContent(
      z.object({
        success: z.literal(true),
        data: z.object({ user: SessionUser, operator: z.object({ id: z.string(), name: z.string() }), session: Session }),
        ...sessionShape,
      }),
      'Created',
      examples.signedUp,
    ),
    400: jsonContent(CodedError, 'MISSING_FIELDS or VALIDATION_FAILED'),
    409: jsonContent(CodedError, 'EMAIL_TAKEN'),
    429: jsonContent(CodedError, 'RATE_LIMITED'),
  },
});

registry.registerPath({
  method: 'post',
  path: '/auth/v1/token',
  summary: 'Sign in (grant_type=password) or renew a session (grant_type=refresh_token)',
  request: {
    query: TokenQuery,
    body: jsonContent(z.union([PasswordGrantBody, RefreshGrantBody]), 'Credentials or refresh token', examples.passwordGrantBody),
  },
  responses: {
    200: jsonContent(Session, 'A new session', examples.session),
    400: jsonContent(OAuthError, 'invalid_grant, invalid_request or unsupported_grant_type'),
    429: jsonContent(OAuthError, 'RATE_LIMITED'),
  },
});

registry.registerPath({
  method: 'get',
  path: '/auth/v1/user',
  summary: 'The signed-in user, with organisation and role (supabase-js auth.getUser)',
  security: [{ session: [] }],
  responses: {
    200: jsonContent(AuthUser, 'The user', examples.authUser),
    401: jsonContent(OAuthError, 'invalid_token: no, an invalid, expired or ended session token, or an API key'),
  },
});

registry.registerPath({
  method: 'post',
  path: '/auth/v1/logout',
  summary: 'Sign out: revoke refresh tokens (supabase-js auth.signOut)',
  security: [{ session: [] }],
  request: { query: LogoutQuery },
  responses: {
    204: { description: 'Signed out' },
    400: jsonContent(OAuthError, 'invalid_request: an unknown scope'),
    401: jsonContent(OAuthError, 'invalid_token: no, an invalid, expired or ended session token, or an API key'),
  },
});
