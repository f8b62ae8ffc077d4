import type { ReactNode } from 'react';
import type { FieldProblem } from '../../../../api/errors';
import { Checkbox, SelectField, TextField } from '../../../../components/Field';
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

/** One line per mode: what it does to a trigger, in the words of docs/workflows.md "Run control". */
const HELP = {
  concurrency: 'At most this many runs of one key run at the same time; a further trigger is skipped, queued, or replaces the oldest run.',
  throttle: 'At most this many triggers of one key start runs per window, counted from the first; the rest are skipped.',
  debounce: 'A trigger waits until the key has been quiet this long; each new one restarts the wait, and only the last starts a run.',
} as const;

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

type Switchable = 'concurrency' | 'throttle' | 'debounce';

const integer = (text: string) => (text.trim() === '' ? 0 : Math.trunc(Number(text)));

/**
 * The "Run control" part of the workflow settings: per-key concurrency, throttle, debounce and cancel-on events of
 * runs started by events (only those: the form says so). Folded into one line by default so the canvas keeps the screen.
 */
export function RunControlForm({ value, onChange, disabled, problems }: Props) {
  const control = value ?? {};
  const set = (patch: Partial<RunControl>) => onChange(normalised({ ...control, ...patch }));
  const problemsOf = (field: string) => problems.filter((problem) => problem.field === field || problem.field.startsWith(`${field}.`));
  const general = problems.filter((problem) => problem.field === 'run_control');
  /** A whole number of `run_control.<field>`, from 1 to `max`. */
  const count = (label: string, max: number, value: number, field: string, onValue: (value: number) => void) => (
    <TextField
      label={label}
      type="number"
      min={1}
      max={max}
      value={value}
      disabled={disabled}
      onChange={(event) => onValue(integer(event.target.value))}
      problems={problemsOf(`run_control.${field}`)}
    />
  );
  /** One kind of control, switched on by its checkbox (from `initial`) and off again (absent). */
  const part = <K extends Switchable>(name: K, label: string, initial: NonNullable<RunControl[K]>, body: (value: NonNullable<RunControl[K]>) => ReactNode) => {
    const current = control[name];
    return (
      <div>
        <Checkbox
          label={label}
          hint={HELP[name]}
          checked={current !== undefined}
          disabled={disabled}
          onChange={(event) => set({ [name]: event.target.checked ? initial : undefined })}
        />
        {current !== undefined && body(current as NonNullable<RunControl[K]>)}
      </div>
    );
  };

  return (
    <details className="run-control" open={problems.length > 0 || undefined}>
      <summary>
        Run control: <span className="muted">{summaryOf(value)}</span>
      </summary>
      <p className="hint run-control-scope">
        Applies to runs started by events (event triggers) only: test runs, MCP calls, webhooks and schedules start as asked. Limits count per key — by default
        the event&apos;s player. Triggers it holds back are listed, with the reason, under Runs › Skipped triggers.
      </p>
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
        {part('concurrency', 'Limit runs per key', { limit: 1, when_busy: 'skip' }, (concurrency) => (
          <div className="run-control-pair">
            {count('Runs at the same time per key', 100, concurrency.limit, 'concurrency.limit', (limit) => set({ concurrency: { ...concurrency, limit } }))}
            <SelectField
              label="When busy"
              value={concurrency.when_busy}
              disabled={disabled}
              onChange={(event) => set({ concurrency: { ...concurrency, when_busy: event.target.value as 'skip' } })}
              problems={problemsOf('run_control.concurrency.when_busy')}
            >
              {(Object.keys(BUSY_LABELS) as Array<keyof typeof BUSY_LABELS>).map((mode) => (
                <option key={mode} value={mode}>
                  {BUSY_LABELS[mode]}
                </option>
              ))}
            </SelectField>
          </div>
        ))}
        {part('throttle', 'Throttle', { limit: 1, period_seconds: 3600 }, (throttle) => (
          <div className="run-control-pair">
            {count('Max runs per window', 10000, throttle.limit, 'throttle.limit', (limit) => set({ throttle: { ...throttle, limit } }))}
            {count('Window (seconds)', 86400, throttle.period_seconds, 'throttle.period_seconds', (seconds) =>
              set({ throttle: { ...throttle, period_seconds: seconds } }),
            )}
          </div>
        ))}
        {part('debounce', 'Debounce', { quiet_seconds: 60 }, (debounce) =>
          count('Wait for quiet (seconds)', 86400, debounce.quiet_seconds, 'debounce', (seconds) => set({ debounce: { quiet_seconds: seconds } })),
        )}
      </div>
    </details>
  );
}
