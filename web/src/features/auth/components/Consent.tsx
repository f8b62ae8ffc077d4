import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { useMember } from '../../../auth/session';
import { ErrorNotice, Loading } from '../../../components/Status';
import { AuthLayout } from './AuthLayout';
import { decideConsent, useConsentRequest } from '../api/auth';

const READ = 'mcp:tools.read';
const WRITE = 'mcp:tools.write';

/** What each scope lets the host do, in the member's words. */
const SCOPE_TEXT: Record<string, string> = {
  [READ]: 'List the tools and run those that only read',
  [WRITE]: 'Run tools with real effects (they write, send or call suppliers)',
};

/**
 * The consent page an MCP host's authorization request leads to (`/consent?request=…`, from `/oauth/authorize`): the
 * signed-in member sees which host asks, where it sends them back, and the organisation's tools it would reach;
 * approves (all it asks, or read-only tools only) or denies; and the browser goes back to the host with the answer.
 */
export default function Consent() {
  const [params] = useSearchParams();
  const requestId = params.get('request') ?? '';
  const member = useMember();
  const [readOnly, setReadOnly] = useState(false);
  const load = useConsentRequest(requestId);
  const decide = useAction(async (decision: 'approve' | 'deny', scopes?: string[]) => {
    const body = scopes ? { decision, scopes: scopes as Array<typeof READ | typeof WRITE> } : { decision };
    const answer = await decideConsent(requestId, body);
    window.location.assign(answer.redirect_to);
    return answer;
  });

  if (load.loading && !load.data)
    return (
      <AuthLayout title="Connect an MCP host">
        <Loading label="Reading the request…" />
      </AuthLayout>
    );
  if (load.error || !load.data)
    return (
      <AuthLayout title="Connect an MCP host">
        <ErrorNotice error={load.error} onRetry={load.reload} />
      </AuthLayout>
    );
  const request = load.data;
  const asksWrite = request.scopes.includes(WRITE);
  const granted = asksWrite && !readOnly && request.may_approve_write ? [READ, WRITE] : [READ];
  const reachable = request.tools.filter((tool) => granted.includes(tool.scope));
  return (
    <AuthLayout title={`Connect ${request.client.name}`}>
      <p>
        <strong>{request.client.name}</strong> asks to use the tools of your organisation as <strong>{member.email}</strong>. After you answer, you go back to{' '}
        <code>{request.redirect_host}</code>.
      </p>
      {!request.enabled && (
        <p className="notice notice-error" role="alert">
          Your organisation has turned off MCP hosts signed in this way. Ask an Owner or Admin.
        </p>
      )}
      <h2>It asks to</h2>
      <ul aria-label="Requested access">
        {request.scopes.map((scope) => (
          <li key={scope}>{SCOPE_TEXT[scope] ?? scope}</li>
        ))}
      </ul>
      {asksWrite && !request.may_approve_write && (
        <p className="notice notice-warn" role="note">
          As a Member you may approve tools that only read: tools with real effects need an Owner or Admin in your organisation.
        </p>
      )}
      {asksWrite && request.may_approve_write && (
        <label>
          <input type="checkbox" checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} /> Allow only tools that read
        </label>
      )}
      <h2>Tools it will reach ({reachable.length})</h2>
      <ul aria-label="Tools">
        {reachable.map((tool) => (
          <li key={tool.name}>
            {tool.title} <code>{tool.name}</code>
          </li>
        ))}
      </ul>
      {decide.error && <ErrorNotice error={decide.error} />}
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={decide.pending || !request.enabled}
          onClick={() => void decide.run('approve', granted)}
        >
          Approve
        </button>
        <button type="button" className="button" disabled={decide.pending} onClick={() => void decide.run('deny')}>
          Deny
        </button>
      </div>
    </AuthLayout>
  );
}
