import type { TeamRefusal, TeamRole } from '../../core/teamRules';
import { CommandError } from '../errors';

/** Who acts on the team: their membership and its role, as their session names them. */
export interface TeamCaller {
  memberId: string;
  role: TeamRole;
}

export const refused = (refusal: TeamRefusal) => new CommandError(refusal.code, refusal.message);
export const memberNotFound = () => new CommandError('NOT_FOUND', 'Member not found');
export const inviteNotFound = () => new CommandError('NOT_FOUND', 'No pending invite with that id');
export const alreadyMember = () => new CommandError('ALREADY_MEMBER', 'This email already has an account');
export const alreadyInOrganisation = () => new CommandError('ALREADY_MEMBER', 'This email already has an account in this organisation');
