import { useAction } from '../../../api/useLoad';
import { ErrorNotice, LoadStatus } from '../../../components/Status';
import { saveHostRules, useHostRules } from '../api/keys';

/**
 * The organisation's rules for MCP hosts signed in with OAuth (`GET`/`PUT /oauth/settings`), for the Owner and Admins:
 * whether hosts may connect at all, and whether a Member may approve tools with real effects. Each change saves at once.
 */
export function HostRules() {
  const settings = useHostRules();
  const save = useAction(async (change: { enabled?: boolean; members_may_write?: boolean }) => {
    await saveHostRules(change);
    settings.reload();
  });
  const rules = settings.data?.data;
  return (
    <fieldset className="panel" aria-describedby="host-rules-hint">
      <legend>Rules for MCP hosts</legend>
      <LoadStatus load={settings} />
      {rules && (
        <>
          <p>
            <label>
              <input type="checkbox" checked={rules.enabled} disabled={save.pending} onChange={(event) => void save.run({ enabled: event.target.checked })} />{' '}
              MCP hosts may connect by signing in (OAuth)
            </label>
          </p>
          <p>
            <label>
              <input
                type="checkbox"
                checked={rules.members_may_write}
                disabled={save.pending}
                onChange={(event) => void save.run({ members_may_write: event.target.checked })}
              />{' '}
              Members (not only Owners and Admins) may approve tools with real effects
            </label>
          </p>
        </>
      )}
      <p id="host-rules-hint" className="hint">
        Turning hosts off refuses every connected host at once; turning it on again restores them.
      </p>
      <ErrorNotice error={save.error} title="The rules could not be saved." />
    </fieldset>
  );
}
