import { useEffect, useState } from 'react';
import { TextField } from '../../../../components/Field';
import { formatNumber } from '../../../../format';
import type { StateObject } from './complianceState';

const numberText = (value: unknown) => (typeof value === 'number' ? String(value) : '');

/**
 * The player's deposit limit (minor units, over the gate's deposit-limit window) and session limit (minutes), asked to
 * be confirmed before they are stored: `onPropose` gets the whole compliance value to store.
 */
export function ComplianceLimits({ compliance, manage, onPropose }: { compliance: StateObject; manage: boolean; onPropose: (next: StateObject) => void }) {
  const [deposit, setDeposit] = useState(numberText(compliance.depositLimit));
  const [session, setSession] = useState(numberText(compliance.sessionLimit));
  useEffect(() => {
    setDeposit(numberText(compliance.depositLimit));
    setSession(numberText(compliance.sessionLimit));
  }, [compliance.depositLimit, compliance.sessionLimit]);
  const invalid = (text: string) => text.trim() !== '' && !(Number.isInteger(Number(text)) && Number(text) >= 0);
  const problem = (text: string) => (invalid(text) ? [{ field: 'value', message: 'must be a whole number, 0 or more' }] : undefined);
  if (!manage) {
    return (
      <p>
        Deposit limit:{' '}
        {typeof compliance.depositLimit === 'number' && compliance.depositLimit > 0 ? `${formatNumber(compliance.depositLimit)} (minor units)` : 'none'} ·
        session limit:{' '}
        {typeof compliance.sessionLimit === 'number' && compliance.sessionLimit > 0 ? `${formatNumber(compliance.sessionLimit)} minutes` : 'none'}
      </p>
    );
  }
  return (
    <form
      className="inline-form"
      aria-label="Limits"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid(deposit) || invalid(session)) return;
        const next: StateObject = { ...compliance, checkedAt: new Date().toISOString() };
        for (const [key, text] of [
          ['depositLimit', deposit],
          ['sessionLimit', session],
        ] as const) {
          if (text.trim() === '') delete next[key];
          else next[key] = Number(text);
        }
        onPropose(next);
      }}
    >
      <TextField
        label="Deposit limit (minor units)"
        type="number"
        inputMode="numeric"
        min={0}
        value={deposit}
        onChange={(event) => setDeposit(event.target.value)}
        hint="Cents for EUR; empty or 0: none"
        problems={problem(deposit)}
      />
      <TextField
        label="Session limit (minutes)"
        type="number"
        inputMode="numeric"
        min={0}
        value={session}
        onChange={(event) => setSession(event.target.value)}
        hint="Empty or 0: none"
        problems={problem(session)}
      />
      <button type="submit" className="button">
        Save limits…
      </button>
    </form>
  );
}
