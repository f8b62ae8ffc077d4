import { Link, Navigate } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { useSession } from '../../../auth/session';
import { AccountForm, startSession, type AccountField, type AccountValues } from './AccountForm';
import { AuthLayout } from './AuthLayout';
import { createOrganisation } from '../api/auth';

type Field = 'organisationName' | 'email';

const FIELDS: readonly AccountField<Field>[] = [
  { name: 'organisationName', label: 'Organisation name', autoComplete: 'organization' },
  { name: 'email', label: 'Your email', type: 'email', autoComplete: 'email' },
];

/**
 * A new organisation with the visitor as its Owner. Called through the typed client (its errors name
 * each field), then handed to the auth client, which keeps and refreshes the session from there.
 */
export default function SignUp() {
  const session = useSession();
  const signUp = useAction(async ({ fields, password }: AccountValues<Field>) => {
    const created = await createOrganisation({ email: fields.email, password, organisationName: fields.organisationName });
    await startSession(created.data.session);
  });
  if (session.status === 'signed-in') return <Navigate to="/" replace />;

  return (
    <AuthLayout
      title="Create an organisation"
      footer={
        <p>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      }
    >
      <AccountForm
        fields={FIELDS}
        passwordLabel="Password"
        action={signUp}
        failureTitle="The organisation could not be created."
        submitLabel="Create organisation"
        pendingLabel="Creating…"
      />
    </AuthLayout>
  );
}
