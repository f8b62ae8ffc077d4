import { useState } from 'react';
import { Link } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { Dialog } from '../../../components/Dialog';
import { Checkbox } from '../../../components/Field';
import { ErrorNotice, Loading } from '../../../components/Status';
import { keyName, type ApiKey } from './keys';
import { useAutomations } from '../../automations/api/automations';
import { setKeyMcp } from '../api/keys';

/** MCP access of a key (`PATCH /api-keys/:id/mcp`): on or off, and which exposed workflows it lists. */
export function McpDialog({ record, onClose, onSaved }: { record: ApiKey; onClose: () => void; onSaved: () => void }) {
  const [enabled, setEnabled] = useState(record.mcp_enabled);
  const [limit, setLimit] = useState(record.mcp_workflow_allowlist !== null);
  const [allowed, setAllowed] = useState<string[]>(record.mcp_workflow_allowlist ?? []);
  const workflows = useAutomations({ limit: 100 });
  const save = useAction(async () => {
    await setKeyMcp(record.id, { mcp_enabled: enabled, mcp_workflow_allowlist: limit ? allowed : null });
    onSaved();
  });
  const list = workflows.data?.data ?? [];
  return (
    <Dialog
      open
      title={`MCP access of “${keyName(record)}”`}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-primary" onClick={() => void save.run()} disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <p>An MCP client (an AI assistant) with this key can list and call the workflows exposed over MCP.</p>
      <Checkbox label="Allow MCP with this key" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
      <fieldset className="kv" disabled={!enabled}>
        <legend>Which workflows</legend>
        <div className="field field-check">
          <input id="mcp-all" type="radio" name="mcp-scope" checked={!limit} onChange={() => setLimit(false)} />
          <label htmlFor="mcp-all">Every workflow exposed over MCP</label>
        </div>
        <div className="field field-check">
          <input id="mcp-some" type="radio" name="mcp-scope" checked={limit} onChange={() => setLimit(true)} />
          <label htmlFor="mcp-some">Only the ones ticked below</label>
        </div>
        {workflows.loading && !workflows.data && <Loading />}
        <ErrorNotice error={workflows.error} />
        {limit && list.length === 0 && workflows.data && (
          <p>
            No workflows yet. <Link to="/workflows">Create one</Link> and switch on “Expose over MCP”.
          </p>
        )}
        {limit &&
          list.map((workflow) => (
            <Checkbox
              key={workflow.id}
              label={`${workflow.name}${workflow.mcp_exposed ? '' : ' (not exposed yet)'}`}
              checked={allowed.includes(workflow.id)}
              onChange={(event) => setAllowed(event.target.checked ? [...allowed, workflow.id] : allowed.filter((id) => id !== workflow.id))}
            />
          ))}
      </fieldset>
      <ErrorNotice error={save.error} title="MCP access was not saved." />
    </Dialog>
  );
}
