import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { CommandError, REFUSAL_CODES, type RefusalCode } from '../../commands/errors';
import { OUTCOME_STATUS, REFUSAL_STATUS } from '../../api/commandAnswers';
import { errorHandler } from '../../api/middleware/errorHandler';

/**
 * The refusal codes the spec states a status for (operator-platform-api.md 7.2, 7.3, 7.5; DESIGN.md's data API,
 * team and erasure rules), copied from the text rather than from the table under test.
 */
const SPEC: Partial<Record<RefusalCode, number>> = {
  MISSING_FIELDS: 400,
  VALIDATION_FAILED: 400,
  TEMPLATE_NOT_CONFIGURED: 400,
  INVALID_INPUT: 400,
  ENTITY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  CONNECTION_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  INVALID_TOKEN: 400,
  FORBIDDEN: 403,
  OWNER_PROTECTED: 403,
  ALREADY_MEMBER: 409,
  INVITE_USED: 409,
  INVITE_EXPIRED: 410,
  IDEMPOTENCY_KEY_REUSED: 409,
  ENTITY_ERASED: 409,
};

/** The platform's own codes (docs/api.md, docs/workflows.md, docs/identity.md, docs/mcp.md), as they answered before commands lost their status. */
const PLATFORM: Partial<Record<RefusalCode, number>> = {
  INVALID_OPENAPI: 400,
  invalid_grant: 400,
  invalid_target: 400,
  invalid_client: 400,
  invalid_client_metadata: 400,
  invalid_redirect_uri: 400,
  WORKFLOW_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  REPLAY_NOT_FOUND: 404,
  BACKTEST_NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  VERSION_NOT_RESTORABLE: 409,
  RUN_NOT_AWAITING_INPUT: 409,
  RUN_NOT_RUNNING: 409,
  RUN_STILL_RUNNING: 409,
  REPLAY_ALREADY_RUNNING: 409,
  REPLAY_NOT_RUNNING: 409,
  BACKTEST_ALREADY_RUNNING: 409,
  BACKTEST_NOT_RUNNING: 409,
};

/** Runs the error middleware over a handler that throws `error`, as the data API's `coded` area. */
async function answerOf(error: unknown): Promise<{ status: number; body: unknown }> {
  const app = new Koa();
  const req = new IncomingMessage(new Socket());
  Object.assign(req, { url: '/operator-data-api/entities', method: 'POST' });
  const ctx = app.createContext(req, new ServerResponse(req));
  ctx.state.errorFormat = 'coded';
  await errorHandler()(ctx, () => Promise.reject(error));
  return { status: ctx.status, body: ctx.body };
}

describe('command answers', () => {
  it.each(Object.entries(SPEC))("the spec's %s is answered %i", (code, status) => {
    expect(REFUSAL_STATUS[code as RefusalCode]).toBe(status);
  });

  it.each(Object.entries(PLATFORM))('the platform code %s is answered %i', (code, status) => {
    expect(REFUSAL_STATUS[code as RefusalCode]).toBe(status);
  });

  it('every refusal code has a 4xx status and is named by the spec or the platform', () => {
    for (const code of REFUSAL_CODES) {
      expect(SPEC[code] ?? PLATFORM[code]).toBe(REFUSAL_STATUS[code]);
      expect(REFUSAL_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(REFUSAL_STATUS[code]).toBeLessThan(500);
    }
  });

  it('a write is 201 when it created, 200 when it updated or repeated', () => {
    expect(OUTCOME_STATUS).toEqual({ created: 201, updated: 200, duplicate: 200 });
  });

  it('the error middleware answers a refusal with its status, code, message and details', async () => {
    const details = [{ field: 'externalId', message: 'is erased' }];
    expect(await answerOf(new CommandError('ENTITY_ERASED', 'Entity p-1 was erased', details))).toEqual({
      status: 409,
      body: { success: false, error: { code: 'ENTITY_ERASED', message: 'Entity p-1 was erased', details } },
    });
    expect(await answerOf(new CommandError('INVITE_EXPIRED', 'This invite has expired; ask for a new one'))).toEqual({
      status: 410,
      body: { success: false, error: { code: 'INVITE_EXPIRED', message: 'This invite has expired; ask for a new one' } },
    });
  });
});
