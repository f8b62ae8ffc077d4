import { z } from 'zod';
import type { AppDeps } from '../deps';
import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { rateLimit } from '../middleware/rateLimit';
import type { FieldProblem } from '../middleware/validate';
import { bearerSession, CodedError, jsonContent, OAuthError } from '../openapi/registry';
import { getUserHandler, logoutHandler } from './account';
import { dashboardCredentialHandler } from './dashboardCredential';
import * as examples from './examples';
import { tokenHandler } from './grants';
import {
  AuthUser,
  DashboardCredential,
  LogoutQuery,
  PasswordGrantBody,
  RefreshGrantBody,
  Session,
  SessionUser,
  sessionShape,
  SignupBody,
  SignupDocument,
  TokenQuery,
} from './schema';
import { signupHandler } from './signup';

const invalidRequest = (problems: { problems: FieldProblem[] }) =>
  new AppError(400, 'invalid_request', problems.problems.map((p) => `${p.field}: ${p.message}`).join('; '));

/**
 * Identity: signup creates an organisation and its Owner; token issues sessions; user and logout are
 * what supabase-js `getUser` and `signOut` call (OAuth-style errors except on signup). User and logout
 * check the session themselves, so that every failure is RFC 6750's `invalid_token`.
 */
const auth = defineArea({
  prefix: '/auth/v1',
  guards: (deps) => ({ limitByAddress: rateLimit(deps.rateLimits, 'auth', (ctx) => ctx.ip) }),
});

const sessionOnly = [{ [bearerSession.name]: [] }];
const invalidSession = jsonContent(OAuthError, 'invalid_token: no, an invalid, expired or ended session token, or an API key');

auth.endpoint({
  method: 'post',
  path: '/signup',
  summary: 'Create an organisation (operator) with the caller as its Owner',
  security: 'none',
  description: 'The session is returned in `data.session` and, as GoTrue returns it, at the top level too (so supabase-js `auth.signUp` signs the caller in).',
  guards: ['limitByAddress'],
  input: { body: SignupBody },
  request: { body: { schema: SignupDocument, description: 'New organisation and its Owner', example: examples.signupBody } },
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
  handler: signupHandler,
});

auth.endpoint({
  method: 'post',
  path: '/token',
  errorFormat: 'oauth',
  summary: 'Sign in (grant_type=password) or renew a session (grant_type=refresh_token)',
  security: 'none',
  guards: ['limitByAddress'],
  input: { query: TokenQuery },
  inputError: invalidRequest,
  request: {
    body: { schema: z.union([PasswordGrantBody, RefreshGrantBody]), description: 'Credentials or refresh token', example: examples.passwordGrantBody },
  },
  responses: {
    200: jsonContent(Session, 'A new session', examples.session),
    400: jsonContent(OAuthError, 'invalid_grant, invalid_request or unsupported_grant_type'),
    429: jsonContent(OAuthError, 'RATE_LIMITED'),
  },
  handler: tokenHandler,
});

auth.endpoint({
  method: 'get',
  path: '/user',
  errorFormat: 'oauth',
  summary: 'The signed-in user, with organisation and role (supabase-js auth.getUser)',
  security: sessionOnly,
  responses: {
    200: jsonContent(AuthUser, 'The user', examples.authUser),
    401: invalidSession,
  },
  handler: getUserHandler,
});

auth.endpoint({
  method: 'post',
  path: '/logout',
  errorFormat: 'oauth',
  summary: 'Sign out: revoke refresh tokens (supabase-js auth.signOut)',
  security: sessionOnly,
  request: { query: LogoutQuery },
  responses: {
    204: { description: 'Signed out' },
    400: jsonContent(OAuthError, 'invalid_request: an unknown scope'),
    401: invalidSession,
  },
  handler: logoutHandler,
});

auth.endpoint({
  method: 'post',
  path: '/dashboard-credential',
  errorFormat: 'oauth',
  summary: "The signed-in dashboard's credential for the data API and the gateway",
  description:
    'The data API and `/gateway` take API keys, not session access tokens; the dashboard sends this instead. It is bound to the ' +
    "caller's sign-in and ends with it (any logout, refresh-token revocation, suspension), lives `DASHBOARD_CREDENTIAL_TTL_SECONDS` " +
    "(ask again before then), allows what the member's role allows (a Member reads), is rate-limited as its operator, and is not " +
    'an API key: never stored, listed or counted.',
  security: sessionOnly,
  responses: {
    200: jsonContent(DashboardCredential, 'A new credential', examples.dashboardCredential),
    401: invalidSession,
  },
  handler: dashboardCredentialHandler,
});

export const createAuthRouter = (deps: AppDeps) => auth.router(deps);
