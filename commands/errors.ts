/**
 * Every refusal a use case can answer, by its stable code. The API gives each its HTTP status in one table
 * (api/commandAnswers.ts), which the compiler keeps complete; a new code here is a new row there.
 */
export const REFUSAL_CODES = [
  'MISSING_FIELDS',
  'VALIDATION_FAILED',
  'TEMPLATE_NOT_CONFIGURED',
  'INVALID_INPUT',
  'INVALID_OPENAPI',
  'INVALID_TOKEN',
  'FORBIDDEN',
  'OWNER_PROTECTED',
  'NOT_FOUND',
  'ENTITY_NOT_FOUND',
  'CONNECTION_NOT_FOUND',
  'CONNECTOR_NOT_FOUND',
  'WORKFLOW_NOT_FOUND',
  'VERSION_NOT_FOUND',
  'RUN_NOT_FOUND',
  'REPLAY_NOT_FOUND',
  'BACKTEST_NOT_FOUND',
  'ENTITY_ERASED',
  'IDEMPOTENCY_KEY_REUSED',
  'ALREADY_MEMBER',
  'EMAIL_TAKEN',
  'INVITE_USED',
  'VERSION_NOT_RESTORABLE',
  'RUN_NOT_AWAITING_INPUT',
  'RUN_NOT_RUNNING',
  'RUN_STILL_RUNNING',
  'REPLAY_ALREADY_RUNNING',
  'REPLAY_NOT_RUNNING',
  'BACKTEST_ALREADY_RUNNING',
  'BACKTEST_NOT_RUNNING',
  'INVITE_EXPIRED',
  'invalid_grant',
  'invalid_target',
  'invalid_client',
  'invalid_client_metadata',
  'invalid_redirect_uri',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * A use case's refusal, in business terms: what went wrong as a stable code, a message a person can act on, and
 * details naming the fields at fault. No HTTP status: the API maps the code (api/commandAnswers.ts), the CLI prints
 * the message, a job records the code. Anything else a command throws is a fault, never a refusal.
 *
 * @example throw new CommandError('WORKFLOW_NOT_FOUND', 'Workflow not found')
 */
export class CommandError extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}
