import { signup } from '../../commands/signup';
import { signedUpRecord } from './presenters';
import { SignupBody } from './schema';
import { issueSession } from './session';
import { auth } from './area';

/** `POST /auth/v1/signup`: a new organisation with the caller as its Owner, signed in at once. */
export const signupHandler = auth.handler({ input: { body: SignupBody } }, async ({ deps, ctx, input: { body } }) => {
  const created = await signup(deps, { organisationName: body.organisationName, email: body.email, password: body.password });
  const session = await issueSession(deps, created.user, created.member);
  ctx.status = 201;
  ctx.body = signedUpRecord(created.user, created.operator, session);
});
