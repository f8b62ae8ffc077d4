import { useEffect, useState } from 'react';
import { SelectField } from '../../../../components/Field';
import { CHANNEL_LABEL, CHANNELS, CHOICE_LABEL, choiceOf, consentWith, type Channel, type ConsentChoice, type StateObject } from './complianceState';

const choicesOf = (consent: StateObject) =>
  Object.fromEntries(CHANNELS.map((channel) => [channel, choiceOf(consent, channel)])) as Record<Channel, ConsentChoice>;

/** Consent per channel (given, refused, not recorded), asked to be confirmed before it is stored; read-only for a Member. */
export function ComplianceConsent({ consent, manage, onPropose }: { consent: StateObject; manage: boolean; onPropose: (next: StateObject) => void }) {
  const [choices, setChoices] = useState(() => choicesOf(consent));
  useEffect(() => setChoices(choicesOf(consent)), [consent]);
  return (
    <form
      aria-label="Consent per channel"
      onSubmit={(event) => {
        event.preventDefault();
        onPropose(consentWith(consent, choices));
      }}
    >
      <div className="consent-grid">
        {CHANNELS.map((channel) => (
          <SelectField
            key={channel}
            label={CHANNEL_LABEL[channel]}
            value={choices[channel]}
            disabled={!manage}
            onChange={(event) => setChoices({ ...choices, [channel]: event.target.value as ConsentChoice })}
          >
            {(['given', 'refused', 'unset'] as const).map((choice) => (
              <option key={choice} value={choice}>
                {CHOICE_LABEL[choice]}
              </option>
            ))}
          </SelectField>
        ))}
      </div>
      {manage && (
        <button type="submit" className="button">
          Save consent…
        </button>
      )}
    </form>
  );
}
