import { useEffect, useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { Checkbox, SelectField, TextField } from '../../../components/Field';
import { ErrorNotice, Loading, Success } from '../../../components/Status';
import { depositLimitPeriods, periodLabel, RULES, THRESHOLDS } from './gateFields';
import { QuietHoursField } from './QuietHoursField';
import { bodyOf, draftOf, type SettingsDraft } from './settingsDraft';
import { saveGateSettings, useGateSettings } from '../api/compliance';

/**
 * The responsible-gambling gate's settings (`GET`/`PUT /workflows-api/compliance/settings`, docs/compliance.md
 * "Operator settings"): which optional rules apply, opt-in consent, quiet hours by jurisdiction, the harm thresholds.
 * Everyone reads them; the Owner and Admins save them (the API refuses a Member), so a Member sees them read-only.
 * The exclusion rule is shown on and locked: the API has no off switch for it.
 */
export function GateSettings({ manage }: { manage: boolean }) {
  const loaded = useGateSettings();
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data.data));
  }, [loaded.data]);
  const save = useAction(async (next: SettingsDraft) => {
    setSaved(false);
    const stored = await saveGateSettings(bodyOf(next) as never);
    setDraft(draftOf(stored.data));
    setSaved(true);
  });

  if (loaded.error) return <ErrorNotice error={loaded.error} onRetry={loaded.reload} title="The gate's settings did not load." />;
  if (!draft) return <Loading />;
  const change = (changes: Partial<SettingsDraft>) => {
    setSaved(false);
    setDraft({ ...draft, ...changes });
  };
  const problems = (field: string) => save.error?.problemsAt(field);
  const disabled = !manage;
  return (
    <form
      className="panel gate-settings"
      aria-labelledby="gate-settings-title"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run(draft);
      }}
    >
      <h2 id="gate-settings-title">Gate settings</h2>
      <p className="hint">
        Every marketing step (emails; AI, HTTP and gateway steps marked marketing or bonus) is checked against these rules when it runs. A rule that applies
        suppresses the step and names it on the run.
      </p>
      <fieldset className="kv">
        <legend>Rules</legend>
        <Checkbox label="Exclusion: self-excluded, cooling-off and excluded players" checked disabled hint="Always on: no organisation can switch it off." />
        {RULES.map((rule) => (
          <Checkbox
            key={rule.key}
            label={rule.label}
            checked={draft[rule.key]}
            disabled={disabled}
            onChange={(event) => change({ [rule.key]: event.target.checked })}
            hint={rule.hint}
          />
        ))}
      </fieldset>
      <QuietHoursField rows={draft.quietHours} disabled={disabled} problems={problems} onChange={(quietHours) => change({ quietHours })} />
      <fieldset className="kv">
        <legend>Harm thresholds</legend>
        <div className="gate-grid">
          {THRESHOLDS.map((threshold) => (
            <TextField
              key={threshold.key}
              label={threshold.label}
              type="number"
              inputMode="numeric"
              value={draft[threshold.key]}
              disabled={disabled}
              onChange={(event) => change({ [threshold.key]: event.target.value })}
              hint={threshold.hint}
              problems={problems(threshold.field)}
            />
          ))}
          <SelectField
            label="Deposit limit counts the last"
            value={draft.depositLimitHours}
            disabled={disabled}
            onChange={(event) => change({ depositLimitHours: event.target.value })}
            problems={problems('depositLimitHours')}
          >
            {depositLimitPeriods(draft.depositLimitHours).map((hours) => (
              <option key={hours} value={hours}>
                {periodLabel(hours)}
              </option>
            ))}
          </SelectField>
        </div>
      </fieldset>
      <ErrorNotice error={save.error} title="The gate's settings were not saved." />
      {saved && <Success>Gate settings saved.</Success>}
      {manage ? (
        <button type="submit" className="button button-primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save gate settings'}
        </button>
      ) : (
        <p className="hint">Only the Owner or an Admin can change the gate&apos;s settings.</p>
      )}
    </form>
  );
}
