import type { TeamRefusal, TeamRole } from '../../core/teamRules';
import { CommandError } from '../errors';

/** Who acts on the team: their membership and its role, as their session names them. */
export interface TeamCaller {
  memberId: string;
  role: TeamRole;
}

const REFUSAL_STATUS: Record<TeamRefusal['code'], number> = { INVALID_INPUT: 400, FORBIDDEN: 403, OWNER_PROTECTED: 403 };

export const refused = (refusal: TeamRefusal) => new CommandError(REFUSAL_STATUS[refusal.code], refusal.code, refusal.message);
export const memberNotFound = () => new CommandError(404, 'NOT_FOUND', 'Member not found');
export const inviteNotFound = () => new CommandError(404, 'NOT_FOUND', 'No pending invite with that id');
export const alreadyMember = () => new CommandError(409, 'ALREADY_MEMBER', 'This email already has an account');
export const alreadyInOrganisation = () => new CommandError(409, 'ALREADY_MEMBER', 'This email already has an account in this organisation');
