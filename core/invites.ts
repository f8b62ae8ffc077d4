/** Invite lifetime (spec 8): 7 days after creation or the last resend. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const INVITE_TOKEN_PREFIX = 'inv_';
const INVITE_TOKEN_PATTERN = /^inv_[A-Za-z0-9_-]{43}$/;

export type InviteStatus = 'pending' | 'accepted' | 'revoked';
export type InviteState = InviteStatus | 'expired';

/** True for the shape `secretToken('inv')` produces; anything else cannot be an invite token. */
export function isWellFormedInviteToken(value: unknown): value is string {
  return typeof value === 'string' && INVITE_TOKEN_PATTERN.test(value);
}

export function inviteExpiresAt(now: Date): Date {
  return new Date(now.getTime() + INVITE_LIFETIME_MS);
}

/**
 * What an invite is at `now`. Expiry is derived, not stored, so "7 days later" needs no job: a pending
 * invite whose `expires_at` has passed is `expired`; accepted and revoked invites stay what they are.
 *
 * @example inviteState({ status: 'pending', expires_at: new Date('2026-01-01') }, new Date('2026-02-01')) // 'expired'
 */
export function inviteState(invite: { status: InviteStatus; expires_at: Date }, now: Date): InviteState {
  if (invite.status !== 'pending') return invite.status;
  return invite.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** The link the invitee opens: `{APP_URL}/accept-invite?token=…` (spec 2.9). */
export function acceptUrlFor(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/accept-invite?token=${encodeURIComponent(token)}`;
}

/** The invite email, plain text: the accept link stands on its own line so mail clients keep it clickable. */
export function inviteEmailMessage(input: { orgName: string; role: 'admin' | 'member'; acceptUrl: string; expiresAt: Date }): {
  subject: string;
  text: string;
} {
  const article = input.role === 'admin' ? 'an' : 'a';
  return {
    subject: `You're invited to join ${input.orgName}`,
    text: [
      `You have been invited to join ${input.orgName} on the Operator Platform as ${article} ${input.role}.`,
      '',
      'Accept the invitation and choose your password here:',
      input.acceptUrl,
      '',
      `This link expires on ${input.expiresAt.toISOString()}. If you did not expect this invitation, ignore this email.`,
      '',
    ].join('\n'),
  };
}

/** Keyring context of a sealed invite token: a ciphertext copied to another invite or operator fails to open. */
export function inviteTokenContext(operatorId: string, inviteId: string): string {
  return `${operatorId}:invite:${inviteId}:token`;
}
