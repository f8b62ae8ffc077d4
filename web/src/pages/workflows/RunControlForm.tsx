import type { FieldProblem } from '../../api/errors';
import { Checkbox, SelectField, TextField } from '../../components/Field';
import './runControl.css';

/** An automation's `run_control` (docs/workflows.md "Run control"); null: runs start as triggered. */
export interface RunControl {
  key?: string;
  concurrency?: { limit: number; when_busy: 'queue' | 'skip' | 'replace' };
  throttle?: { limit: number; period_seconds: number };
  debounce?: { quiet_seconds: number };
  cancel_on?: string[];
}

interface Props {
  value: RunControl | null;
  onChange: (value: RunControl | null) => void;
  disabled: boolean;
  /** The save's problems whose field starts with `run_control`. */
  problems: FieldProblem[];
}

const BUSY_LABELS = { skip: 'skip it', queue: 'queue it', replace: 'replace the run' } as const;

/** One line saying what the control does, shown while the section is folded. */
function summaryOf(control: RunControl | null): string {
  if (!control) return 'off — every event starts a run';
  const parts: string[] = [];
  if (control.concurrency) parts.push(`${control.concurrency.limit} at a time per key, else ${control.concurrency.when_busy}`);
  if (control.throttle) parts.push(`at most ${control.throttle.limit} per ${control.throttle.period_seconds} s`);
  if (control.debounce) parts.push(`debounce ${control.debounce.quiet_seconds} s`);
  if (control.cancel_on) parts.push(`cancel on ${control.cancel_on.join(', ')}`);
  return parts.join(' · ') || 'key only';
}

/** `undefined` fields dropped, and null when nothing is left to control. */
function normalised(control: RunControl): RunControl | null {
  const entries = Object.entries(control).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? null : (Object.fromEntries(entries) as RunControl);
}

const integer = (text: string) => (text.trim() === '' ? 0 : Math.trunc(Number(text)));

/**
 * The "Run control" part of the workflow settings: per-key concurrency, throttle, debounce and cancel-on events of
 * runs started by events. Folded into one line by default so the canvas keeps the screen.
 */
export function RunControlForm({ value, onChange, disabled, problems }: Props) {
  const control = value ?? {};
  const set = (patch: Partial<RunControl>) => onChange(normalised({ ...control, ...patch }));
  const problemsOf = (field: string) => problems.filter((problem) => problem.field === field || problem.field.startsWith(`${field}.`));
  const general = problems.filter((problem) => problem.field === 'run_control');

  return (
    <details className="run-control" open={problems.length > 0 || undefined}>
      <summary>
        Run control: <span className="muted">{summaryOf(value)}</span>
      </summary>
      {general.map((problem) => (
        <span key={problem.message} className="field-error" role="alert">
          {problem.message}
        </span>
      ))}
      <div className="run-control-grid">
        <TextField
          label="Key (JSONata)"
          title="Runs are limited per key; default: the event's player"
          placeholder="the event's player"
          value={control.key ?? ''}
          disabled={disabled}
          onChange={(event) => set({ key: event.target.value.trim() === '' ? undefined : event.target.value })}
          problems={problemsOf('run_control.key')}
        />
        <TextField
          label="Cancel runs on events"
          title="Comma-separated event names: the key's running runs end when one arrives"
          placeholder="entity_event.transaction, …"
          value={(control.cancel_on ?? []).join(', ')}
          disabled={disabled}
          onChange={(event) => {
            const names = event.target.value
              .split(',')
              .map((name) => name.trim())
              .filter((name) => name !== '');
            set({ cancel_on: names.length > 0 ? names : undefined });
          }}
          problems={problemsOf('run_control.cancel_on')}
        />
        <div>
          <Checkbox
            label="Limit runs per key"
            checked={control.concurrency !== undefined}
            disabled={disabled}
            onChange={(event) => set({ concurrency: event.target.checked ? { limit: 1, when_busy: 'skip' } : undefined })}
          />
          {control.concurrency && (
            <div className="run-control-pair">
              <TextField
                label="At once"
                type="number"
                min={1}
                max={100}
                value={control.concurrency.limit}
                disabled={disabled}
                onChange={(event) => set({ concurrency: { ...control.concurrency!, limit: integer(event.target.value) } })}
                problems={problemsOf('run_control.concurrency.limit')}
              />
              <SelectField
                label="When busy"
                value={control.concurrency.when_busy}
                disabled={disabled}
                onChange={(event) => set({ concurrency: { ...control.concurrency!, when_busy: event.target.value as 'skip' } })}
                problems={problemsOf('run_control.concurrency.when_busy')}
              >
                {(Object.keys(BUSY_LABELS) as Array<keyof typeof BUSY_LABELS>).map((mode) => (
                  <option key={mode} value={mode}>
                    {BUSY_LABELS[mode]}
                  </option>
                ))}
              </SelectField>
            </div>
          )}
        </div>
        <div>
          <Checkbox
            label="Throttle"
            checked={control.throttle !== undefined}
            disabled={disabled}
            onChange={(event) => set({ throttle: event.target.checked ? { limit: 1, period_seconds: 3600 } : undefined })}
          />
          {control.throttle && (
            <div className="run-control-pair">
              <TextField
                label="Runs"
                type="number"
                min={1}
                max={10000}
                value={control.throttle.limit}
                disabled={disabled}
                onChange={(event) => set({ throttle: { ...control.throttle!, limit: integer(event.target.value) } })}
                problems={problemsOf('run_control.throttle.limit')}
              />
              <TextField
                label="Per seconds"
                type="number"
                min={1}
                max={86400}
                value={control.throttle.period_seconds}
                disabled={disabled}
                onChange={(event) => set({ throttle: { ...control.throttle!, period_seconds: integer(event.target.value) } })}
                problems={problemsOf('run_control.throttle.period_seconds')}
              />
            </div>
          )}
        </div>
        <div>
          <Checkbox
            label="Debounce"
            checked={control.debounce !== undefined}
            disabled={disabled}
            onChange={(event) => set({ debounce: event.target.checked ? { quiet_seconds: 60 } : undefined })}
          />
          {control.debounce && (
            <TextField
              label="Quiet seconds"
              type="number"
              min={1}
              max={86400}
              value={control.debounce.quiet_seconds}
              disabled={disabled}
              onChange={(event) => set({ debounce: { quiet_seconds: integer(event.target.value) } })}
              problems={problemsOf('run_control.debounce')}
            />
          )}
        </div>
      </div>
    </details>
  );
}
