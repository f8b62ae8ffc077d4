import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAction } from '../../../../api/useLoad';
import type { components } from '../../../../api/schema';
import { Dialog } from '../../../../components/Dialog';
import { SelectField } from '../../../../components/Field';
import { ErrorNotice } from '../../../../components/Status';
import type { StartedRunState } from './startedRun';
import type { StepNode } from '../../editor/components/graph';
import { rerunFromStep, runRecorded } from '../api/runs';

type Run = components['schemas']['WorkflowRun'];

const RECORDED_WAIT_MS = 10_000;

/** Waits until the new run has recorded itself (its begin step), so the page opened next finds it. */
async function recorded(runId: string): Promise<void> {
  const deadline = Date.now() + RECORDED_WAIT_MS;
  while (Date.now() < deadline) {
    if (await runRecorded(runId)) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** "Rerun of run_… from step …" on a run that reruns another, linking to the original. */
export function RerunOf({ run }: { run: Run }) {
  if (!run.rerunOf) return null;
  return (
    <p className="run-rerun-of">
      Rerun of <Link to={`/workflows/${run.workflowId}?run=${run.rerunOf}`}>{run.rerunOf}</Link>
      {run.rerunFromNodeId && <> from step {run.rerunFromNodeId}</>}
      {run.replayId && (
        <>
          {' '}
          · replay <code>{run.replayId}</code>
        </>
      )}
    </p>
  );
}

/**
 * "Rerun from step…" on a finished run (`POST /workflows-api/runs/:runId/rerun`): the step (the failed one by default),
 * the version, a confirmation; then the new run opens where this one was read — its own page (`/runs/:runId`) from the
 * Runs pages, the workflow's Runs tab from the editor — told it was just started, so it waits for its record rather
 * than show "No such run.". Steps before the chosen one keep their recorded results.
 */
export function RerunFromStep({ run, nodes }: { run: Run; nodes: StepNode[] }) {
  const navigate = useNavigate();
  const onRunPage = useLocation().pathname.startsWith('/runs/');
  const triggers = new Set(nodes.filter((node) => node.data.type.startsWith('trigger.')).map((node) => node.id));
  const steps = run.nodes.filter((node) => !triggers.has(node.id));
  const failed = run.error?.nodeId ?? run.nodes.find((node) => node.status === 'failed')?.id;
  const [open, setOpen] = useState(false);
  const [fromNodeId, setFromNodeId] = useState(failed ?? steps[0]?.id ?? '');
  const [version, setVersion] = useState<'run' | 'current'>('run');
  const rerun = useAction(async () => {
    const started = await rerunFromStep(run.id, { fromNodeId, version });
    await recorded(started.data.runId);
    setOpen(false);
    const state: StartedRunState = { startedAt: Date.now() };
    navigate(onRunPage ? `/runs/${started.data.runId}` : `/workflows/${run.workflowId}?run=${started.data.runId}`, { state });
  });
  if (steps.length === 0) return null;
  const close = () => {
    setOpen(false);
    rerun.clear();
  };
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen(true)}>
        Rerun from step…
      </button>
      <Dialog
        open={open}
        title="Rerun from a step"
        onClose={close}
        actions={
          <>
            <button type="button" className="button" onClick={close} disabled={rerun.pending}>
              Keep as is
            </button>
            <button type="button" className="button button-primary" onClick={() => void rerun.run()} disabled={rerun.pending || !fromNodeId}>
              {rerun.pending ? 'Starting…' : `Rerun from ${fromNodeId}`}
            </button>
          </>
        }
      >
        <p>
          A new run with the same trigger payload. The steps before the one you choose keep their recorded results and do not run again; the chosen step and
          every step after it run again, with real effects.
        </p>
        <SelectField label="Step to rerun from" value={fromNodeId} onChange={(event) => setFromNodeId(event.target.value)}>
          {steps.map((node) => (
            <option key={node.id} value={node.id}>
              {node.id} ({node.status})
            </option>
          ))}
        </SelectField>
        <fieldset className="field">
          <legend>Version</legend>
          <label>
            <input type="radio" name="rerun-version" checked={version === 'run'} onChange={() => setVersion('run')} /> The run&apos;s version (
            {run.workflowVersion})
          </label>
          <label>
            <input type="radio" name="rerun-version" checked={version === 'current'} onChange={() => setVersion('current')} /> The current version
          </label>
        </fieldset>
        <ErrorNotice error={rerun.error} title="Not rerun." />
      </Dialog>
    </>
  );
}
