import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useAction } from '../../../../api/useLoad';
import { ConfirmDialog } from '../../../../components/Dialog';
import { ErrorNotice, Success } from '../../../../components/Status';
import { formatDateTime } from '../../../../format';
import { ComplianceConsent } from './ComplianceConsent';
import { ComplianceLimits } from './ComplianceLimits';
import { complianceWith, objectOf, type StateObject } from './complianceState';
import '../compliance.css';
import { setPlayerState, usePlayerHarm } from '../../api/compliance';

interface Proposal {
  key: 'compliance' | 'consent';
  value: StateObject;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  body: ReactNode;
  done: string;
}

const yesNo = (on: boolean) => (on ? <span className="badge badge-failed">Yes</span> : 'No');

/**
 * The player's responsible-gambling standing as the gate reads it (docs/compliance.md "Where the state lives"):
 * self-exclusion, cooling-off, limits, consent per channel and harm indicators. The Owner and Admins change them here,
 * each change confirmed first and written as the `compliance` or `consent` state through the data API, which records
 * it on the audit trail; a Member's dashboard credential only reads, so a Member sees them read-only.
 */
export function CompliancePanel({
  externalId,
  states,
  fields,
  manage,
  onChanged,
}: {
  externalId: string;
  states: Array<{ state_key: string; value?: unknown; updated_at: string }>;
  fields: Record<string, unknown>;
  manage: boolean;
  onChanged: () => void;
}) {
  const stored = (key: string) => states.find((state) => state.state_key === key);
  const compliance = objectOf(stored('compliance')?.value);
  const consent = objectOf(stored('consent')?.value);
  const harm = usePlayerHarm(externalId);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const apply = useAction(async (change: Proposal) => {
    await setPlayerState(externalId, change.key, change.value);
    setProposal(null);
    setDone(change.done);
    onChanged();
  });
  const propose = (change: Proposal) => {
    setDone(null);
    apply.clear();
    setProposal(change);
  };

  const selfExcluded = compliance.selfExcluded === true;
  const coolingOff = compliance.coolingOff === true;
  const sources = Array.isArray(compliance.exclusionSources) ? compliance.exclusionSources.map(String) : [];
  const atRiskUntil = harm.data?.data.atRiskUntil ?? null;
  const indicators = harm.data?.data.indicators ?? [];

  return (
    <section className="panel" aria-labelledby="compliance-title" data-testid="compliance-panel">
      <h2 id="compliance-title">Responsible gambling</h2>
      <dl className="compliance-facts">
        <div>
          <dt>Self-excluded</dt>
          <dd data-fact="selfExcluded">
            {yesNo(selfExcluded)} {sources.length > 0 && <span className="hint">({sources.join(', ')})</span>}
          </dd>
        </div>
        <div>
          <dt>Cooling-off</dt>
          <dd data-fact="coolingOff">{yesNo(coolingOff)}</dd>
        </div>
        <div>
          <dt>Player status</dt>
          <dd>{typeof fields.status === 'string' ? fields.status : '—'}</dd>
        </div>
        <div>
          <dt>Jurisdiction</dt>
          <dd>{typeof fields.jurisdiction === 'string' ? fields.jurisdiction : '—'}</dd>
        </div>
        <div>
          <dt>Harm indicators</dt>
          <dd data-fact="atRisk">{atRiskUntil ? <span className="badge badge-failed">At risk until {formatDateTime(atRiskUntil)}</span> : 'Not at risk'}</dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>{typeof compliance.checkedAt === 'string' ? formatDateTime(compliance.checkedAt) : '—'}</dd>
        </div>
      </dl>
      <p className="hint">
        While self-excluded, cooling-off or excluded, the player gets no marketing step of any workflow: the gate suppresses it and records why.
        {manage && (
          <>
            {' '}
            <Link to={`/compliance?evidence.player=${encodeURIComponent(externalId)}`}>See the evidence for this player</Link>.
          </>
        )}
      </p>
      {manage && (
        <div className="page-actions">
          <button
            type="button"
            className={selfExcluded ? 'button' : 'button button-danger'}
            onClick={() =>
              propose({
                key: 'compliance',
                value: complianceWith(compliance, 'selfExcluded', !selfExcluded),
                title: selfExcluded ? `Lift self-exclusion of ${externalId}?` : `Self-exclude ${externalId}?`,
                confirmLabel: selfExcluded ? 'Lift self-exclusion' : 'Self-exclude',
                danger: !selfExcluded,
                body: selfExcluded ? (
                  <p>Marketing steps may reach this player again, subject to the other rules. Lift it only when the exclusion period has ended.</p>
                ) : (
                  <p>
                    From now on every marketing step of every workflow for this player is suppressed (rule “self excluded”), until self-exclusion is lifted.
                  </p>
                ),
                done: selfExcluded ? 'Self-exclusion lifted.' : 'Self-exclusion set: marketing to this player is suppressed.',
              })
            }
          >
            {selfExcluded ? 'Lift self-exclusion…' : 'Self-exclude…'}
          </button>
          <button
            type="button"
            className="button"
            onClick={() =>
              propose({
                key: 'compliance',
                value: complianceWith(compliance, 'coolingOff', !coolingOff),
                title: coolingOff ? `End cooling-off of ${externalId}?` : `Start cooling-off for ${externalId}?`,
                confirmLabel: coolingOff ? 'End cooling-off' : 'Start cooling-off',
                body: coolingOff ? (
                  <p>Marketing steps may reach this player again, subject to the other rules.</p>
                ) : (
                  <p>Every marketing step for this player is suppressed (rule “cooling off”) until cooling-off ends.</p>
                ),
                done: coolingOff ? 'Cooling-off ended.' : 'Cooling-off started: marketing to this player is suppressed.',
              })
            }
          >
            {coolingOff ? 'End cooling-off…' : 'Start cooling-off…'}
          </button>
        </div>
      )}
      <h3>Limits</h3>
      <ComplianceLimits
        compliance={compliance}
        manage={manage}
        onPropose={(value) =>
          propose({
            key: 'compliance',
            value,
            title: `Change the limits of ${externalId}?`,
            confirmLabel: 'Save limits',
            body: <p>The gate suppresses marketing once completed deposits reach the deposit limit (when the deposit-limit rule is on).</p>,
            done: 'Limits saved.',
          })
        }
      />
      <h3>Consent per channel</h3>
      <ComplianceConsent
        consent={consent}
        manage={manage}
        onPropose={(value) =>
          propose({
            key: 'consent',
            value,
            title: `Change the consent of ${externalId}?`,
            confirmLabel: 'Save consent',
            body: <p>Marketing on a refused channel is suppressed (rule “no consent”); a step with no channel needs every channel.</p>,
            done: 'Consent saved.',
          })
        }
      />
      {indicators.length > 0 && (
        <>
          <h3>Harm indicators fired</h3>
          <ul>
            {indicators.map((indicator) => (
              <li key={`${indicator.indicator}:${indicator.firedAt}`}>
                {indicator.indicator.replace(/_/g, ' ')} · {formatDateTime(indicator.firedAt)}
              </li>
            ))}
          </ul>
        </>
      )}
      <ErrorNotice error={harm.error} onRetry={harm.reload} title="The harm indicators did not load." />
      {done && <Success>{done} Recorded in the audit log.</Success>}
      {!manage && <p className="hint">Only the Owner or an Admin can change a player&apos;s exclusion, limits and consent.</p>}
      <ConfirmDialog
        open={proposal !== null}
        title={proposal?.title ?? ''}
        confirmLabel={proposal?.confirmLabel ?? ''}
        danger={proposal?.danger}
        pending={apply.pending}
        error={apply.error}
        onCancel={() => {
          setProposal(null);
          apply.clear();
        }}
        onConfirm={() => proposal && void apply.run(proposal)}
      >
        {proposal?.body}
        <p className="hint">The change is recorded in the audit log under your name.</p>
      </ConfirmDialog>
    </section>
  );
}
