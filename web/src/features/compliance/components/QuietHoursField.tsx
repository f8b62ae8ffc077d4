import type { FieldProblem } from '../../../api/errors';
import { SelectField, TextField } from '../../../components/Field';
import { rowKey, type SettingsDraft } from './settingsDraft';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

type Row = SettingsDraft['quietHours'][number];

/**
 * Quiet hours by jurisdiction: UTC hours from (inclusive) to (exclusive), across midnight when from is later than to.
 * Each row's problems come back from the API by index (`quietHours.0.from`) and are shown beside that row's input.
 */
export function QuietHoursField({
  rows,
  disabled,
  problems,
  onChange,
}: {
  rows: Row[];
  disabled: boolean;
  problems: (field: string) => FieldProblem[] | undefined;
  onChange: (rows: Row[]) => void;
}) {
  const update = (index: number, changes: Partial<Row>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...changes } : row)));
  return (
    <fieldset className="kv">
      <legend>Quiet hours by jurisdiction (UTC)</legend>
      {rows.length === 0 && <p className="hint">No quiet hours: marketing may go out at any hour.</p>}
      {rows.map((row, index) => (
        <div className="quiet-row" key={row.key} data-quiet-row={index}>
          <TextField
            label={`Jurisdiction ${index + 1}`}
            value={row.jurisdiction}
            maxLength={20}
            disabled={disabled}
            onChange={(event) => update(index, { jurisdiction: event.target.value })}
            hint="As the player's jurisdiction field holds it (GB)"
            problems={problems(`quietHours.${index}.jurisdiction`)}
          />
          <SelectField
            label={`From ${index + 1}`}
            value={row.from}
            disabled={disabled}
            onChange={(event) => update(index, { from: event.target.value })}
            problems={problems(`quietHours.${index}.from`)}
          >
            {HOURS.map((hour) => (
              <option key={hour} value={String(hour)}>
                {hourText(hour)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={`Until ${index + 1}`}
            value={row.to}
            disabled={disabled}
            onChange={(event) => update(index, { to: event.target.value })}
            problems={problems(`quietHours.${index}.to`)}
          >
            {HOURS.map((hour) => (
              <option key={hour} value={String(hour)}>
                {hourText(hour)}
              </option>
            ))}
          </SelectField>
          {!disabled && (
            <button type="button" className="button button-small" onClick={() => onChange(rows.filter((_, at) => at !== index))}>
              Remove {row.jurisdiction || `row ${index + 1}`}
            </button>
          )}
        </div>
      ))}
      {!disabled && (
        <button type="button" className="button button-small" onClick={() => onChange([...rows, { key: rowKey(), jurisdiction: '', from: '22', to: '8' }])}>
          Add quiet hours
        </button>
      )}
      {problems('quietHours')?.some((problem) => problem.field === 'quietHours') && (
        <p className="field-error">{problems('quietHours')!.find((problem) => problem.field === 'quietHours')!.message}</p>
      )}
    </fieldset>
  );
}
