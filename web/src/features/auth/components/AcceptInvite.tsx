import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { auth } from '../../../auth/client';
import { useSession } from '../../../auth/session';
import { ErrorNotice, Loading } from '../../../components/Status';
import { AccountForm, startSession, type AccountField, type AccountValues } from './AccountForm';
import { AuthLayout } from './AuthLayout';
import { acceptInvite, useInviteLookup } from '../api/auth';

const REASONS: Record<string, string> = {
  invalid: 'This invite link is not valid. It may have been replaced by a newer one: ask for the invite to be resent.',
  expired: 'This invite has expired (invites last 7 days). Ask for it to be resent.',
  accepted: 'This invite has already been accepted. Sign in instead.',
  revoked: 'This invite was withdrawn. Ask your organisation for a new one.',
};

type Field = 'first_name' | 'last_name';

const FIELDS: readonly AccountField<Field>[] = [
  { name: 'first_name', label: 'First name', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Last name', autoComplete: 'family-name' },
];

/** The page behind `{APP_URL}/accept-invite?token=…` in invite emails: look the invite up, then join. */
export default function AcceptInvite() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const [joined, setJoined] = useState(false);
  const lookup = useInviteLookup(token);
  const accept = useAction(async ({ fields, password }: AccountValues<Field>) => {
    const joined = await acceptInvite({ token, password, first_name: fields.first_name, last_name: fields.last_name });
    await startSession(joined.data);
    setJoined(true);
  });

  if (session.status === 'signed-in' && joined) return <Navigate to="/" replace />;
  if (session.status === 'signed-in' && !accept.pending) {
    return (
      <AuthLayout title="Accept an invite">
        <p>You are signed in as {session.member.email}. Sign out first to accept an invite for another account.</p>
        <button type="button" className="button" onClick={() => void auth.signOut({ scope: 'local' })}>
          Sign out
        </button>
      </AuthLayout>
    );
  }
  if (lookup.loading && !lookup.data)
    return (
      <AuthLayout title="Accept an invite">
        <Loading label="Checking the invite…" />
      </AuthLayout>
    );
  if (lookup.error)
    return (
      <AuthLayout title="Accept an invite">
        <ErrorNotice error={lookup.error} onRetry={lookup.reload} />
      </AuthLayout>
    );
  const invite = lookup.data?.data;
  if (!invite || !invite.valid) {
    const reason = invite && 'reason' in invite ? String(invite.reason) : 'invalid';
    return (
      <AuthLayout
        title="Accept an invite"
        footer={
          <p>
            <Link to="/sign-in">Go to sign in</Link>
          </p>
        }
      >
        <p className="notice notice-error" role="alert">
          {REASONS[reason] ?? REASONS.invalid}
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={`Join ${'orgName' in invite ? invite.orgName : ''}`}>
      <p>
        You were invited as <strong>{'role' in invite ? invite.role : ''}</strong> with the email <strong>{'email' in invite ? invite.email : ''}</strong>.
      </p>
      <AccountForm
        fields={FIELDS}
        passwordLabel="Choose a password"
        action={accept}
        failureTitle="The invite could not be accepted."
        submitLabel="Accept and sign in"
        pendingLabel="Joining…"
      />
    </AuthLayout>
  );
}
