import { useId, useState } from 'react';
import { useAction } from '../../../../api/useLoad';
import { Dialog } from '../../../../components/Dialog';
import { Checkbox, TextField } from '../../../../components/Field';
import { KeyValueEditor, parseValue } from '../../../../components/KeyValueEditor';
import { ErrorNotice } from '../../../../components/Status';
import { EVENT_FIELDS } from './catalog';
import { MONEY_FIELDS, MONEY_UNIT } from './code/fieldTypes';
import type { Workflow } from './graph';
import { startTestRun } from '../api/editor';

interface Input {
  /** What the run receives: an event's fields plus its player, or the trigger's inputs. */
  fields: string[];
  required: string[];
  player: boolean;
  /** Amounts in minor units, hinted as such where they are typed. */
  money: readonly string[];
}

/** The form a test run needs, from the workflow's first trigger (manual and MCP runs use it too). */
function inputOf(workflow: Workflow): Input {
  const trigger = workflow.nodes.find((node) => node.type.startsWith('trigger.'));
  const params = (trigger?.params ?? {}) as { event?: string; inputSchema?: { properties?: Record<string, unknown>; required?: string[] } };
  if (trigger?.type === 'trigger.event') {
    const type = /^entity_event\.(.+)$/.exec(params.event ?? '')?.[1];
    const spec = type ? EVENT_FIELDS[type] : undefined;
    return {
      fields: spec ? [...spec.required, ...spec.optional.slice(0, 3)] : [],
      required: spec?.required ?? [],
      player: true,
      money: MONEY_FIELDS[type ?? ''] ?? [],
    };
  }
  if (trigger?.type === 'trigger.manual' || trigger?.type === 'trigger.webhook') {
    return { fields: Object.keys(params.inputSchema?.properties ?? {}), required: params.inputSchema?.required ?? [], player: false, money: [] };
  }
  return { fields: [], required: [], player: false, money: [] };
}

/**
 * A manual test run (spec 6.2): it runs live, with real side effects, so it needs an explicit
 * confirmation. The payload is built from fields, not typed as JSON.
 */
export function TestRunDialog({ workflow, onClose, onRun }: { workflow: Workflow; onClose: () => void; onRun: (runId: string) => void }) {
  const input = inputOf(workflow);
  const [player, setPlayer] = useState('p-1');
  const [values, setValues] = useState<Record<string, string>>({});
  const [extra, setExtra] = useState<Record<string, unknown>>({});
  const [confirmed, setConfirmed] = useState(false);
  const id = useId();
  const run = useAction(async () => {
    const fields: Record<string, unknown> = { ...extra };
    for (const name of input.fields) if ((values[name] ?? '') !== '') fields[name] = parseValue(values[name] ?? '');
    const body = input.player ? { data: fields, entity: { externalId: player.trim() } } : fields;
    const result = await startTestRun(workflow.id, body);
    onRun(result.data.id);
  });
  return (
    <Dialog
      open
      wide
      title={`Test run: ${workflow.name}`}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose} disabled={run.pending}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={!confirmed || run.pending} onClick={() => void run.run()}>
            {run.pending ? 'Running…' : 'Run now'}
          </button>
        </>
      }
    >
      <p className="notice notice-warn" id={`${id}-warning`}>
        A test run is live: its actions really happen (data is written, emails are sent, suppliers are called) and count against this month's quota.
      </p>
      {input.player && (
        <TextField
          label="Player (external ID)"
          value={player}
          onChange={(event) => setPlayer(event.target.value)}
          hint="The player the event is about: trigger.entity.externalId"
        />
      )}
      {input.fields.map((name) => (
        <TextField
          key={name}
          label={`${name}${input.required.includes(name) ? ' (required)' : ''}`}
          value={values[name] ?? ''}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          {...(input.money.includes(name) ? { hint: `A number in ${MONEY_UNIT}`, inputMode: 'numeric' as const } : {})}
        />
      ))}
      <KeyValueEditor
        legend={input.fields.length > 0 ? 'Other fields' : 'Input fields'}
        value={extra}
        onChange={setExtra}
        hint="Numbers and true/false are read as such."
      />
      <Checkbox
        label="I understand this run has real effects"
        checked={confirmed}
        onChange={(event) => setConfirmed(event.target.checked)}
        aria-describedby={`${id}-warning`}
      />
      <ErrorNotice error={run.error} title="The run did not start." />
    </Dialog>
  );
}
