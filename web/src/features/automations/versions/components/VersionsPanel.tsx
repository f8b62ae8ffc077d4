import { useState } from 'react';
import { useAction } from '../../../../api/useLoad';
import { ConfirmDialog } from '../../../../components/Dialog';
import { EmptyState, LoadStatus } from '../../../../components/Status';
import { formatDateTime } from '../../../../format';
import type { Workflow } from '../../editor/components/graph';
import { VersionsDiff } from './VersionsDiff';
import './versions.css';
import { restoreVersion, useVersions } from '../api/versions';

const PAGE = 20;

/** Who saved a version, as a person reads it: the API's `saved_by` (a member's name or email, a key's label), else what kind. */
const savedBy = (createdBy: string | null, name: string | null) =>
  name ?? (createdBy === null ? '—' : createdBy.startsWith('member:') ? 'a removed member' : 'a removed API key');

/**
 * A workflow's versions (`/workflows/:id/versions`), newest first: pick two to compare side by side, or restore one —
 * as a new version, after a confirmation — which hands the restored workflow to the editor.
 */
export function VersionsPanel({
  workflow,
  editable,
  unsaved,
  onRestored,
}: {
  workflow: Workflow;
  editable: boolean;
  /** The editor holds changes not saved yet: restoring replaces them, so the confirmation says so. */
  unsaved: boolean;
  onRestored: (workflow: Workflow) => void;
}) {
  const [offset, setOffset] = useState(0);
  const [picked, setPicked] = useState<number[]>([]);
  const [restoring, setRestoring] = useState<number | null>(null);
  const versions = useVersions(workflow.id, workflow.version, PAGE, offset);
  const restore = useAction(async (version: number) => {
    const restored = await restoreVersion(workflow.id, version);
    setRestoring(null);
    setPicked([]);
    onRestored(restored.data);
  });
  const list = versions.data?.data ?? [];
  const count = versions.data?.count ?? 0;
  // The two most recently picked, the older on the left.
  const toggle = (version: number) => setPicked((now) => (now.includes(version) ? now.filter((v) => v !== version) : [...now, version].slice(-2)));
  const pair = picked.length === 2 ? ([Math.min(...picked), Math.max(...picked)] as const) : null;

  return (
    <section aria-labelledby="versions-title" className="versions">
      <h2 id="versions-title">Versions</h2>
      <p className="hint">
        Every save that changes what runs is kept as a version; moving steps is not. A run finishes on the version it started with. Tick two versions to compare
        them.
      </p>
      <LoadStatus load={versions} />
      {versions.data && list.length === 0 && <EmptyState title="No versions yet" />}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="versions-table">
            <caption>
              {count} version{count === 1 ? '' : 's'}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Version</th>
                <th scope="col">Saved</th>
                <th scope="col" className="versions-optional">
                  Name
                </th>
                <th scope="col" className="num versions-optional">
                  Steps
                </th>
                {editable && <th scope="col">Restore</th>}
              </tr>
            </thead>
            <tbody>
              {list.map((item) => (
                <tr key={item.version} className={picked.includes(item.version) ? 'selected' : undefined}>
                  <td>
                    <input
                      type="checkbox"
                      checked={picked.includes(item.version)}
                      onChange={() => toggle(item.version)}
                      aria-label={`Compare version ${item.version}`}
                    />
                  </td>
                  <td>
                    {item.version}
                    {item.version === workflow.version && <span className="badge versions-current">current</span>}
                  </td>
                  <td>
                    {formatDateTime(item.created_at)}
                    <span className="hint"> by {savedBy(item.created_by, item.saved_by)}</span>
                  </td>
                  <td className="versions-name versions-optional">{item.name}</td>
                  <td className="num versions-optional">{item.node_count}</td>
                  {editable && (
                    <td>
                      {item.version !== workflow.version && (
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => setRestoring(item.version)}
                          aria-label={`Restore version ${item.version}`}
                        >
                          Restore
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {count > PAGE && (
        <div className="pager">
          <button type="button" className="button button-small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </button>
          <span className="hint">
            {offset + 1}–{Math.min(offset + PAGE, count)} of {count}
          </span>
          <button type="button" className="button button-small" disabled={offset + PAGE >= count} onClick={() => setOffset(offset + PAGE)}>
            Older
          </button>
        </div>
      )}
      {pair && <VersionsDiff workflowId={workflow.id} from={pair[0]} to={pair[1]} />}
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore version ${restoring ?? ''}?`}
        confirmLabel="Restore this version"
        pending={restore.pending}
        error={restore.error}
        onCancel={() => {
          setRestoring(null);
          restore.clear();
        }}
        onConfirm={() => restoring !== null && void restore.run(restoring)}
      >
        <p>
          Version {restoring}’s steps become the current definition as a new version ({workflow.version + 1}); nothing is deleted, version {workflow.version}{' '}
          stays in the list. Its triggers take effect at once, runs already going finish on the version they started with, and whether the workflow is active
          does not change.
        </p>
        {unsaved && <p className="notice notice-warn">Your unsaved changes in the editor will be replaced by the restored version.</p>}
      </ConfirmDialog>
    </section>
  );
}
