import { AppError, type AuthFailure } from '../errors';
import { sessionPrincipalOf } from '../middleware/authenticate';
import type { FieldProblem } from '../middleware/validate';

export const AUTH_TEXT: Record<AuthFailure, string> = {
  missing: 'Authorization header is required',
  invalid_format: 'Invalid or expired session',
  invalid: 'Invalid or expired session',
  revoked: 'Session has been revoked',
  session_required: 'Team management requires a session token; API keys are not accepted',
  api_key_required: 'Team management requires a session token; API keys are not accepted',
};

/** Every validation failure of the area is 400 `INVALID_INPUT` (spec 7.5), naming each offending field. */
export function invalidInput(result: { problems: FieldProblem[] }): AppError {
  const text = result.problems.map((problem) => (problem.field === 'body' ? problem.message : `${problem.field} ${problem.message}`)).join('; ');
  return new AppError(400, 'INVALID_INPUT', `Invalid input: ${text}`);
}

/** The caller of a session-only route (the `authenticate` middleware accepted nothing else): the team area's principal. */
export const sessionOf = sessionPrincipalOf;
