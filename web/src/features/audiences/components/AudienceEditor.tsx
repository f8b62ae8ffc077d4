import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { useCanManage } from '../../../auth/session';
import { TextField } from '../../../components/Field';
import { ErrorNotice, Loading, PageHeader } from '../../../components/Status';
import { useDataSettings } from '../../settings/api/settings';
import { createAudience, updateAudience, useAudience } from '../api/audiences';
import type { SavedState } from './AudiencePage';
import { definitionOf, draftOf, newDraft, newPredicate, placeProblems, PREDICATES_MAX, type DefinitionDraft, type PredicateDraft } from './definitionForm';
import { PredicateFields } from './PredicateFields';
import type { AudienceDefinition } from './predicates';
import './audiences.css';

interface Saved {
  id: string;
  name: string;
  definition: AudienceDefinition;
  version: number;
}

/** `/audiences/new` and `/audiences/:id/edit`: the definition as a form, never JSON. The Owner and Admins only. */
export default function AudienceEditor() {
  const { id } = useParams();
  const manage = useCanManage();
  if (!manage)
    return (
      <>
        <PageHeader title={id ? 'Edit audience' : 'New audience'} />
        <p>Only the Owner and Admins create and change audiences.</p>
        <Link to="/audiences">← All audiences</Link>
      </>
    );
  return id ? <EditSaved id={id} /> : <AudienceForm />;
}

function EditSaved({ id }: { id: string }) {
  const audience = useAudience(id);
  if (audience.data) return <AudienceForm saved={audience.data} />;
  return (
    <>
      <PageHeader title="Edit audience" />
      <ErrorNotice
        error={audience.error}
        onRetry={audience.error?.status === 404 ? undefined : audience.reload}
        title={audience.error?.status === 404 ? 'No such audience in this organisation (or it was deleted).' : undefined}
      />
      {audience.loading && <Loading />}
    </>
  );
}

/** Rows keep an id of their own, so removing a condition never hands its inputs to the next one. */
interface Row {
  id: number;
  predicate: PredicateDraft;
}

function AudienceForm({ saved }: { saved?: Saved }) {
  const navigate = useNavigate();
  const currency = useDataSettings().data?.reportingCurrency ?? 'EUR';
  const first = saved ? draftOf(saved.definition, currency) : newDraft(currency);
  const nextId = useRef(first.predicates.length);
  const [name, setName] = useState(saved?.name ?? '');
  const [combine, setCombine] = useState<DefinitionDraft['combine']>(first.combine);
  const [rows, setRows] = useState<Row[]>(() => first.predicates.map((predicate, index) => ({ id: index, predicate })));
  const draft: DefinitionDraft = { combine, predicates: rows.map((row) => row.predicate) };
  // The problems name the list as it was sent: a save's failure is cleared when conditions are added or removed.
  const [sent, setSent] = useState<DefinitionDraft>(draft);
  const save = useAction(async () => {
    setSent(draft);
    const body = { name: name.trim(), definition: definitionOf(draft) };
    if (!saved) {
      const created = await createAudience(body);
      navigate(`/audiences/${encodeURIComponent(created.id)}`, { state: { saved: 'created' } satisfies SavedState });
      return;
    }
    const updated = await updateAudience(saved.id, body);
    const state: SavedState = { saved: 'updated', ...(updated.version !== saved.version ? { changedAt: updated.updated_at } : {}) };
    navigate(`/audiences/${encodeURIComponent(saved.id)}`, { state });
  });
  const placed = placeProblems(save.error?.details ?? [], sent);
  const reshape = (next: Row[], nextCombine = combine) => {
    save.clear();
    setRows(next);
    setCombine(nextCombine);
  };
  const back = saved ? `/audiences/${encodeURIComponent(saved.id)}` : '/audiences';

  return (
    <>
      <p>
        <Link to={back}>← {saved ? saved.name : 'All audiences'}</Link>
      </p>
      <PageHeader
        title={saved ? `Edit “${saved.name}”` : 'New audience'}
        lead={saved ? `Version ${saved.version}. A changed definition is a new version, judged over every player at the next pass.` : undefined}
      />
      <form
        className="panel audience-form"
        aria-label="Audience"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <TextField label="Name" value={name} maxLength={100} problems={placed.name} onChange={(event) => setName(event.target.value)} />
        <fieldset className="audience-combine">
          <legend>Players who match</legend>
          {(['all', 'any'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="combine" value={value} checked={combine === value} onChange={() => reshape(rows, value)} />{' '}
              {value === 'all' ? 'all of the conditions' : 'any of the conditions'}
            </label>
          ))}
        </fieldset>
        {placed.list.length > 0 && (
          <p className="field-error" role="alert">
            {placed.list.map((problem) => problem.message).join('; ')}
          </p>
        )}
        {rows.map((row, index) => (
          <PredicateFields
            key={row.id}
            index={index}
            predicate={row.predicate}
            problems={placed.predicates[index] ?? {}}
            onChange={(predicate) => setRows(rows.map((each) => (each.id === row.id ? { ...each, predicate } : each)))}
            {...(rows.length > 1 ? { onRemove: () => reshape(rows.filter((each) => each.id !== row.id)) } : {})}
          />
        ))}
        <p>
          <button
            type="button"
            className="button"
            disabled={rows.length >= PREDICATES_MAX}
            onClick={() => reshape([...rows, { id: nextId.current++, predicate: newPredicate('deposit_count', currency) }])}
          >
            Add a condition
          </button>{' '}
          <span className="hint">
            {rows.length} of at most {PREDICATES_MAX}
          </span>
        </p>
        <ErrorNotice error={save.error} title="The audience was not saved." fieldsShown={placed.unplaced.length === 0} />
        <div className="audience-form-actions">
          <button type="submit" className="button button-primary" disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save audience'}
          </button>
          <Link className="button" to={back}>
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}
