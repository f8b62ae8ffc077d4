import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { api, call } from '../../api/client';
import { useAction } from '../../api/useLoad';
import { auth } from '../../auth/client';
import { useSession } from '../../auth/session';
import { TextField } from '../../components/Field';
import { ErrorNotice } from '../../components/Status';
import { AuthLayout } from './AuthLayout';

/**
 * A new organisation with the visitor as its Owner. Called through the typed client (its errors name
 * each field), then handed to the auth client, which keeps and refreshes the session from there.
 */
export default function SignUp() {
  const session = useSession();
  const [organisationName, setOrganisationName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signUp = useAction(async () => {
    const created = await call(api.POST('/auth/v1/signup', { body: { email: email.trim(), password, organisationName: organisationName.trim() } }));
    const { error } = await auth.setSession({ access_token: created.data.session.access_token, refresh_token: created.data.session.refresh_token });
    if (error) throw error;
  });
  if (session.status === 'signed-in') return <Navigate to="/" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signUp.run();
  };
  const problems = (field: string) => signUp.error?.problemsAt(field);
  return (
    <AuthLayout
      title="Create an organisation"
      footer={
        <p>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Organisation name"
          autoComplete="organization"
          required
          value={organisationName}
          onChange={(event) => setOrganisationName(event.target.value)}
          problems={problems('organisationName')}
        />
        <TextField
          label="Your email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          problems={problems('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint="At least 8 characters"
          problems={problems('password')}
        />
        <ErrorNotice error={signUp.error} title="The organisation could not be created." fieldsShown />
        <button type="submit" className="button button-primary button-block" disabled={signUp.pending}>
          {signUp.pending ? 'Creating…' : 'Create organisation'}
        </button>
      </form>
    </AuthLayout>
  );
}
