import type { Context } from 'koa';
import { signup } from '../../commands/signup';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { signedUpRecord } from './presenters';
import { type SignupBody } from './schema';
import { issueSession } from './session';

/** `POST /auth/v1/signup`: a new organisation with the caller as its Owner, signed in at once. */
export async function signupHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof SignupBody }>): Promise<void> {
  const created = await signup(deps, { organisationName: body.organisationName, email: body.email, password: body.password });
  const session = await issueSession(deps, created.user, created.member);
  ctx.status = 201;
  ctx.body = signedUpRecord(created.user, created.operator, session);
}
