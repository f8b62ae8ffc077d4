import { z } from 'zod';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { FieldProblem } from '../middleware/validate';
import { bearerSession, CodedError, jsonContent, OAuthError } from '../openapi/registry';
import { getUserHandler, logoutHandler } from './account';
import { dashboardCredentialHandler } from './dashboardCredential';
import * as examples from './examples';
import { tokenHandler } from './grants';
import { AuthUser, DashboardCredential, LogoutQuery, PasswordGrantBody, RefreshGrantBody, Session, SessionUser, sessionShape, SignupDocument } from './schema';
import { signupHandler } from './signup';
import { auth } from './area';

const invalidRequest = (problems: { problems: FieldProblem[] }) =>
  new AppError(400, 'invalid_request', problems.problems.map((p) => `${p.field}: ${p.message}`).join('; '));

const sessionOnly = [{ [bearerSession.name]: [] }];
const invalidSession = jsonContent(OAuthError, 'invalid_token: no, an invalid, expired or ended session token, or an API key');

auth.endpoint({
  method: 'post',
  path: '/signup',
  summary: 'Create an organisation (operator) with the caller as its Owner',
  security: 'none',
  description: 'The session is returned in `data.session` and, as GoTrue returns it, at the top level too (so supabase-js `auth.signUp` signs the caller in).',
  guards: ['limitByAddress'],
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
  ...signupHandler,
});

auth.endpoint({
  method: 'post',
  path: '/token',
  errorFormat: 'oauth',
  summary: 'Sign in (grant_type=password) or renew a session (grant_type=refresh_token)',
  security: 'none',
  guards: ['limitByAddress'],
  inputError: invalidRequest,
  request: {
    body: { schema: z.union([PasswordGrantBody, RefreshGrantBody]), description: 'Credentials or refresh token', example: examples.passwordGrantBody },
  },
  responses: {
    200: jsonContent(Session, 'A new session', examples.session),
    400: jsonContent(OAuthError, 'invalid_grant, invalid_request or unsupported_grant_type'),
    429: jsonContent(OAuthError, 'RATE_LIMITED'),
  },
  ...tokenHandler,
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
  ...getUserHandler,
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
  ...logoutHandler,
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
  ...dashboardCredentialHandler,
});

export const createAuthRouter = (deps: AppDeps) => auth.router(deps);
