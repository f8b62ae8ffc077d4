import { inviteState } from '../../core/invites';
import type { InviteRow } from '../../db/queries/invites';
import type { TeamMemberRow } from '../../db/queries/team';

/** A member as the team list shows it to `callerMemberId`. */
export function memberRecord(row: TeamMemberRow, callerMemberId: string) {
  return {
    id: row.id,
    authUserId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    isSelf: row.id === callerMemberId,
    isOwner: row.role === 'owner',
  };
}

/** A pending invite, flagged `expired` as of `now`; never its token. */
export function inviteRecord(row: InviteRow, now: Date) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    expiresAt: row.expires_at.toISOString(),
    expired: inviteState(row, now) === 'expired',
    createdAt: row.created_at.toISOString(),
  };
}
