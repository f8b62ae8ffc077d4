import { useState, type ReactNode } from 'react';
import { api, call } from '../api/client';
import { useAction } from '../api/useLoad';
import { useDataKey } from '../auth/dataKey';
import { canManage, useMember } from '../auth/session';
import { TextField } from './Field';
import { ErrorNotice } from './Status';

const masked = (key: string) => `${key.slice(0, 9)}…${key.slice(-4)}`;

/**
 * Renders `children` with the tab's API key for the data API (spec 4.2: API keys only), or explains
 * why one is needed and gets one: a new key for this tab (Owner and Admins) or a pasted key.
 */
export function DataKeyGate({ children, purpose }: { children: (key: string) => ReactNode; purpose: string }) {
  const { key, use, forget } = useDataKey();
  const member = useMember();
  const [pasted, setPasted] = useState('');
  const create = useAction(async () => {
    const created = await call(api.POST('/api-keys', { body: { operatorId: member.operatorId, label: `Dashboard (${member.email})` } }));
    use(created.data.key);
  });

  if (key) {
    return (
      <>
        <p className="key-in-use">
          Data API calls from this tab use the key <code>{masked(key)}</code>.{' '}
          <button type="button" className="link-button" onClick={forget}>
            Forget this key
          </button>
        </p>
        {children(key)}
      </>
    );
  }
  const validPaste = /^svc_live_[0-9a-f]{64}$/.test(pasted.trim());
  return (
    <section className="panel" aria-labelledby="data-key-title">
      <h2 id="data-key-title">An API key is needed</h2>
      <p>
        {purpose} uses the data API, which accepts API keys only, never a signed-in session. The dashboard keeps one key for this browser tab; it is forgotten
        when the tab closes or you sign out.
      </p>
      {canManage(member) && (
        <p>
          <button type="button" className="button button-primary" onClick={() => void create.run()} disabled={create.pending}>
            {create.pending ? 'Creating…' : 'Create a key for this tab'}
          </button>{' '}
          <span className="hint">It appears under API keys as “Dashboard ({member.email})”; revoke it there any time.</span>
        </p>
      )}
      <ErrorNotice error={create.error} title="The key could not be created." />
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (validPaste) use(pasted.trim());
        }}
      >
        <TextField
          label="Or paste an API key"
          type="password"
          autoComplete="off"
          value={pasted}
          onChange={(event) => setPasted(event.target.value)}
          hint="svc_live_ followed by 64 hex characters"
        />
        <button type="submit" className="button" disabled={!validPaste}>
          Use this key
        </button>
      </form>
    </section>
  );
}
