import type { Context } from 'koa';
import { hashPassword } from '../../core/password';
import { createOrganisation, EmailTakenError } from '../../db/queries/identity';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { InputOf } from '../endpoint';
import { signedUpRecord } from './presenters';
import { type SignupBody } from './schema';
import { issueSession } from './session';

/** `POST /auth/v1/signup`: a new organisation with the caller as its Owner, signed in at once. */
export async function signupHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof SignupBody }>): Promise<void> {
  let created;
  try {
    created = await createOrganisation(deps.db, {
      organisationName: body.organisationName,
      email: body.email,
      passwordHash: await hashPassword(body.password),
      displayName: body.email.split('@')[0] ?? body.email,
    });
  } catch (error) {
    if (error instanceof EmailTakenError) throw new AppError(409, 'EMAIL_TAKEN', 'An account with this email already exists');
    throw error;
  }
  const session = await issueSession(deps, created.user, created.member);
  ctx.status = 201;
  ctx.body = signedUpRecord(created.user, created.operator, session);
}
