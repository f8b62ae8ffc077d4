import type { ApiFailure } from '../../../../api/errors';
import { Checkbox, TextField } from '../../../../components/Field';
import { ErrorNotice, Success } from '../../../../components/Status';
import { RunControlForm } from '../../runs/components/RunControlForm';
import type { Meta, Workflow } from './graph';
import type { Placed } from './problems';

interface Props {
  meta: Meta;
  onMeta: (meta: Meta) => void;
  editable: boolean;
  saved: Workflow | null;
  /** Every problem of the last save; the form shows the general ones (name, description, run control) and the count. */
  problems: Placed;
  save: { run: () => Promise<unknown>; pending: boolean; error: ApiFailure | undefined };
  justSaved: boolean;
  onTestRun: () => void;
  onDelete: () => void;
}

/**
 * The editor's settings form above the graph: name, description, the switches and run control, and the save,
 * test-run and delete buttons with the save's outcome. Submitting saves the whole definition, graph included:
 * the Editor owns the save, since its problems are placed on the graph's steps too.
 */
export function SettingsForm({ meta, onMeta, editable, saved, problems, save, justSaved, onTestRun, onDelete }: Props) {
  const invalid = save.error?.code === 'VALIDATION_FAILED';
  const problemCount = problems.general.length + [...problems.byNode.values(), ...problems.byEdge.values()].reduce((sum, list) => sum + list.length, 0);

  return (
    <form
      className="panel workflow-settings"
      aria-label="Workflow settings"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <div className="grid-2">
        <TextField
          label="Name"
          value={meta.name}
          disabled={!editable}
          onChange={(event) => onMeta({ ...meta, name: event.target.value })}
          problems={problems.general.filter((problem) => problem.field === 'name')}
        />
        <TextField
          label="Description"
          value={meta.description}
          disabled={!editable}
          onChange={(event) => onMeta({ ...meta, description: event.target.value })}
          problems={problems.general.filter((problem) => problem.field === 'description')}
        />
      </div>
      <div className="toolbar">
        <Checkbox
          label="Active"
          hint="Events, webhooks and schedules run it only while active; a test run works either way."
          checked={meta.active}
          disabled={!editable}
          onChange={(event) => onMeta({ ...meta, active: event.target.checked })}
        />
        <Checkbox
          label="Expose over MCP"
          hint="AI assistants with an MCP-enabled key can call it as a tool (API keys → MCP)."
          checked={meta.mcp_exposed}
          disabled={!editable}
          onChange={(event) => onMeta({ ...meta, mcp_exposed: event.target.checked })}
        />
      </div>
      <RunControlForm
        value={meta.run_control}
        onChange={(runControl) => onMeta({ ...meta, run_control: runControl })}
        disabled={!editable}
        problems={problems.general.filter((problem) => problem.field.startsWith('run_control'))}
      />
      {editable && (
        <div className="row-actions">
          <button type="submit" className="button button-primary" disabled={save.pending}>
            {save.pending ? 'Saving…' : saved ? 'Save changes' : 'Save workflow'}
          </button>
          {saved && (
            <button type="button" className="button" onClick={onTestRun}>
              Test run…
            </button>
          )}
          {saved && (
            <button type="button" className="button button-danger" onClick={onDelete}>
              Delete
            </button>
          )}
        </div>
      )}
      {!editable && <p className="hint">You can look but not change: editing and test runs need the Owner or an Admin.</p>}
      {justSaved && <Success>Saved as version {saved?.version}.</Success>}
      {save.error &&
        (invalid ? (
          <div className="notice notice-error" role="alert">
            <p>
              <strong>
                Not saved: {problemCount} problem{problemCount === 1 ? '' : 's'}.
              </strong>{' '}
              Steps with problems are marked in red; select one to see its problems next to its fields.
            </p>
            {problems.general.length > 0 && (
              <ul>
                {problems.general.map((problem, index) => (
                  <li key={index}>
                    <code>{problem.field}</code>: {problem.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : (
          <ErrorNotice error={save.error} title="Not saved." />
        ))}
    </form>
  );
}
