import { useState, type FormEvent } from 'react';
import type { ApiFailure } from '../../../api/errors';
import { auth } from '../../../auth/client';
import { TextField } from '../../../components/Field';
import { ErrorNotice } from '../../../components/Status';

/** A text field before the password. `name` is its field in the request body: the API reports its problems under it. */
export interface AccountField<K extends string> {
  name: K;
  label: string;
  autoComplete: string;
  type?: 'email';
}

/** What was typed: the text fields trimmed, the password as typed (its spaces are part of it). */
export interface AccountValues<K extends string> {
  fields: Record<K, string>;
  password: string;
}

interface Props<K extends string> {
  fields: readonly AccountField<K>[];
  passwordLabel: string;
  /** The page's `useAction`: the page owns it because it reads `pending` too (a join in progress is not a signed-in visitor). */
  action: { run: (values: AccountValues<K>) => Promise<unknown>; pending: boolean; error: ApiFailure | undefined };
  failureTitle: string;
  submitLabel: string;
  pendingLabel: string;
}

/**
 * Signs in with the session the account request answered. The auth client then keeps and refreshes it, the same as
 * after a password sign-in; called inside the page's action so the page sees it pending until the session is set.
 */
export async function startSession(session: { access_token: string; refresh_token: string }): Promise<void> {
  const { error } = await auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token });
  if (error) throw error;
}

/**
 * The form that makes an account, shared by sign-up and accepting an invite: their fields, a new password of at least
 * 8 characters, the API's problems shown at each field, one submit button.
 */
export function AccountForm<K extends string>({ fields, passwordLabel, action, failureTitle, submitLabel, pendingLabel }: Props<K>) {
  const [values, setValues] = useState<Partial<Record<K, string>>>({});
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(fields.map((field) => [field.name, (values[field.name] ?? '').trim()])) as Record<K, string>;
    void action.run({ fields: trimmed, password });
  };
  const problems = (field: string) => action.error?.problemsAt(field);
  return (
    <form onSubmit={submit} noValidate>
      {fields.map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          required
          value={values[field.name] ?? ''}
          onChange={(event) => setValues((previous) => ({ ...previous, [field.name]: event.target.value }))}
          problems={problems(field.name)}
        />
      ))}
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        hint="At least 8 characters"
        problems={problems('password')}
      />
      <ErrorNotice error={action.error} title={failureTitle} fieldsShown hideCode />
      <button type="submit" className="button button-primary button-block" disabled={action.pending}>
        {action.pending ? pendingLabel : submitLabel}
      </button>
    </form>
  );
}
