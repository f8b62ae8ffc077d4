import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { useCanManage } from '../../../auth/session';
import { TextField } from '../../../components/Field';
import { KeyValueEditor } from '../../../components/KeyValueEditor';
import { ErrorNotice, Success } from '../../../components/Status';
import { savePlayer } from '../api/players';

/**
 * Creates or updates one player by hand (`POST /operator-data-api/entities`), so a newcomer can try a
 * workflow on a player before their systems send any. The Owner and Admins only: a Member reads.
 */
export function AddPlayer({ onSaved }: { onSaved: () => void }) {
  const manage = useCanManage();
  if (!manage) return null;
  return (
    <details className="panel">
      <summary>Add or update a player by hand</summary>
      <PlayerForm onSaved={onSaved} />
    </details>
  );
}

function PlayerForm({ onSaved }: { onSaved: () => void }) {
  const [externalId, setExternalId] = useState('');
  const [fields, setFields] = useState<Record<string, unknown>>({ country: 'GB' });
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction(async () => {
    setSaved(null);
    const result = await savePlayer({ entityType: 'player', externalId: externalId.trim(), data: fields });
    setSaved(`Player ${result.data.externalId} ${result.data.action}.`);
    onSaved();
  });
  return (
    <form
      aria-label="Add a player"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <TextField
        label="External ID"
        value={externalId}
        onChange={(event) => setExternalId(event.target.value)}
        hint="Your system's id for the player, e.g. p-1"
        problems={save.error?.problemsAt('externalId')}
      />
      <KeyValueEditor
        legend="Fields"
        keyLabel="Field"
        value={fields}
        onChange={setFields}
        hint="Template fields such as country, first_name, email (personal fields are encrypted at rest)."
        problems={save.error?.problemsAt('data')}
      />
      <ErrorNotice error={save.error} title="The player was not saved." fieldsShown />
      {saved && <Success>{saved}</Success>}
      <button type="submit" className="button button-primary" disabled={save.pending || externalId.trim() === ''}>
        {save.pending ? 'Saving…' : 'Save player'}
      </button>
    </form>
  );
}
