import { z } from 'zod';
import { CodedError, jsonContent, OAuthError, registry } from '../openapi/registry';
import * as examples from './examples';

export const SignupBody = z.object({
  email: z.email().max(254).transform((email) => email.trim().toLowerCase()),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  organisationName: z.string().trim().min(1).max(200),
});

export const PasswordGrantBody = z.object({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) });
export const RefreshGrantBody = z.object({ refresh_token: z.string().min(1).max(512) });
export const TokenQuery = z.object({ grant_type: z.string().max(64).optional().describe('password or refresh_token') });

export const Session = registry.register('Session', z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  user: z.object({ id: z.string(), email: z.string() }),
}));

registry.registerPath({
  method: 'post',
  path: '/auth/v1/signup',
  summary: 'Create an organisation (operator) with the caller as its Owner',
  request: { body: jsonContent(SignupBody, 'New organisation and its Owner', examples.signupBody) },
  responses: {
    201: jsonContent(
      z.object({
        success: z.literal(true),
        data: z.object({ user: z.object({ id: z.string(), email: z.string() }), operator: z.object({ id: z.string(), name: z.string() }), session: Session }),
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
