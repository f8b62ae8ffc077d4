import { hashPassword } from '../core/password';
import { createOrganisation, EmailTakenError, type MemberRow, type OperatorRow, type UserRow } from '../db/queries/identity';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

export interface SignupInput {
  organisationName: string;
  /** As the caller normalised it; an address already registered in any letter case is refused. */
  email: string;
  password: string;
}

export interface SignedUp {
  operator: OperatorRow;
  user: UserRow;
  member: MemberRow;
}

/**
 * Opens an organisation: the operator, the user and their Owner membership, all or nothing (`EMAIL_TAKEN` when
 * the email already has an account). Signing the new Owner in is left to the caller, since a session is signed with
 * the API's secret: the returned member is what it needs for that.
 */
export async function signup(deps: Pick<CommandDeps, 'db'>, input: SignupInput): Promise<SignedUp> {
  try {
    return await createOrganisation(deps.db, {
      organisationName: input.organisationName,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      displayName: input.email.split('@')[0] ?? input.email,
    });
  } catch (error) {
    if (error instanceof EmailTakenError) throw new CommandError('EMAIL_TAKEN', 'An account with this email already exists');
    throw error;
  }
}
