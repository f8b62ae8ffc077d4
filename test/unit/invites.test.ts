import { secretToken } from '../../core/ids';
import {
  acceptUrlFor,
  INVITE_LIFETIME_MS,
  inviteEmailMessage,
  inviteExpiresAt,
  inviteState,
  inviteTokenContext,
  isWellFormedInviteToken,
} from '../../core/invites';

const created = new Date('2026-01-01T12:00:00.000Z');
const expiresAt = inviteExpiresAt(created);
const at = (ms: number) => new Date(created.getTime() + ms);

describe('inviteExpiresAt', () => {
  it('is exactly 7 days after the given time', () => {
    expect(INVITE_LIFETIME_MS).toBe(7 * 24 * 3600 * 1000);
    expect(expiresAt.toISOString()).toBe('2026-01-08T12:00:00.000Z');
  });
});

describe('inviteState (the injected clock)', () => {
  it('a pending invite is pending until the 7-day mark and expired from it on', () => {
    expect(inviteState({ status: 'pending', expires_at: expiresAt }, created)).toBe('pending');
    expect(inviteState({ status: 'pending', expires_at: expiresAt }, at(INVITE_LIFETIME_MS - 1))).toBe('pending');
    expect(inviteState({ status: 'pending', expires_at: expiresAt }, at(INVITE_LIFETIME_MS))).toBe('expired');
    expect(inviteState({ status: 'pending', expires_at: expiresAt }, at(30 * 24 * 3600 * 1000))).toBe('expired');
  });

  it('a resend moves the window: the same moment is pending again', () => {
    const resentAt = at(INVITE_LIFETIME_MS + 1000);
    expect(inviteState({ status: 'pending', expires_at: inviteExpiresAt(resentAt) }, resentAt)).toBe('pending');
  });

  it('accepted and revoked invites keep their status whatever the time', () => {
    for (const status of ['accepted', 'revoked'] as const) {
      expect(inviteState({ status, expires_at: expiresAt }, created)).toBe(status);
      expect(inviteState({ status, expires_at: expiresAt }, at(2 * INVITE_LIFETIME_MS))).toBe(status);
    }
  });
});

describe('invite tokens and links', () => {
  it('recognises exactly the shape secretToken("inv") produces', () => {
    expect(isWellFormedInviteToken(secretToken('inv'))).toBe(true);
    for (const value of [undefined, 42, '', 'inv_', `inv_${'a'.repeat(42)}`, `inv_${'a'.repeat(44)}`, `rt_${'a'.repeat(43)}`, `inv_${'a'.repeat(42)}=`]) {
      expect(isWellFormedInviteToken(value)).toBe(false);
    }
  });

  it('builds {APP_URL}/accept-invite?token=… without doubling slashes', () => {
    expect(acceptUrlFor('https://app.example.test/', 'inv_abc-_')).toBe('https://app.example.test/accept-invite?token=inv_abc-_');
    expect(acceptUrlFor('http://localhost:8080', 'inv_x')).toBe('http://localhost:8080/accept-invite?token=inv_x');
  });

  it('binds the sealed token to its operator and invite', () => {
    expect(inviteTokenContext('op', 'inv')).toBe('op:invite:inv:token');
    expect(inviteTokenContext('op', 'a')).not.toBe(inviteTokenContext('op', 'b'));
  });

  it('the email names the organisation and role and puts the link on a line of its own', () => {
    const message = inviteEmailMessage({ orgName: 'Acme', role: 'admin', acceptUrl: 'https://x.test/accept-invite?token=inv_1', expiresAt });
    expect(message.subject).toBe("You're invited to join Acme");
    expect(message.text).toContain('join Acme on the Operator Platform as an admin.');
    expect(message.text.split('\n')).toContain('https://x.test/accept-invite?token=inv_1');
    expect(message.text).toContain('2026-01-08T12:00:00.000Z');
    expect(inviteEmailMessage({ orgName: 'Acme', role: 'member', acceptUrl: 'u', expiresAt }).text).toContain('as a member.');
  });
});
