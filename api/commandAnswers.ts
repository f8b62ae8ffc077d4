/**
 * The one place a use case's answer becomes HTTP: each refusal code of commands/errors.ts has its status here (the
 * spec's tables 7.2–7.5 and docs/spec/DESIGN.md), and each write outcome its status. A refusal code has exactly one
 * status; where the spec gives a code two (JSON-RPC's, MCP's in-result codes), the code is not a command's refusal
 * and its area answers it. docs/api.md "Commands and their answers".
 */
import type { RefusalCode } from '../commands/errors';
import type { WriteOutcome } from '../commands/results';

export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = {
  MISSING_FIELDS: 400,
  VALIDATION_FAILED: 400,
  TEMPLATE_NOT_CONFIGURED: 400,
  INVALID_INPUT: 400,
  INVALID_OPENAPI: 400,
  INVALID_TOKEN: 400,
  invalid_grant: 400,
  invalid_target: 400,
  invalid_client: 400,
  invalid_client_metadata: 400,
  invalid_redirect_uri: 400,
  FORBIDDEN: 403,
  OWNER_PROTECTED: 403,
  NOT_FOUND: 404,
  ENTITY_NOT_FOUND: 404,
  CONNECTION_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  WORKFLOW_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  REPLAY_NOT_FOUND: 404,
  BACKTEST_NOT_FOUND: 404,
  ENTITY_ERASED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  ALREADY_MEMBER: 409,
  EMAIL_TAKEN: 409,
  INVITE_USED: 409,
  VERSION_NOT_RESTORABLE: 409,
  RUN_NOT_AWAITING_INPUT: 409,
  RUN_NOT_RUNNING: 409,
  RUN_STILL_RUNNING: 409,
  REPLAY_ALREADY_RUNNING: 409,
  REPLAY_NOT_RUNNING: 409,
  BACKTEST_ALREADY_RUNNING: 409,
  BACKTEST_NOT_RUNNING: 409,
  INVITE_EXPIRED: 410,
};

/** A write that stored something new is 201; one that changed a record, or repeated an earlier request, is 200. */
export const OUTCOME_STATUS: Readonly<Record<WriteOutcome, number>> = { created: 201, updated: 200, duplicate: 200 };
