import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { auth } from '../../../auth/client';
import { TextField } from '../../../components/Field';
import { markInteractive } from '../../../perf';
import { AuthLayout } from './AuthLayout';

/** Sign-in with `/auth/v1/token?grant_type=password` through the auth client, which then keeps the session fresh. */
export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => markInteractive('sign-in'), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    const { error: failed } = await auth.signInWithPassword({ email: email.trim(), password });
    setPending(false);
    if (failed) setError(failed.status === 0 || failed.status === undefined ? 'The server could not be reached. Try again.' : failed.message);
  };

  return (
    <AuthLayout
      title="Sign in"
      footer={
        <p>
          New here? <Link to="/sign-up">Create an organisation</Link>
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="Email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {error && (
          <p className="notice notice-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={pending || !email || !password}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthLayout>
  );
}
