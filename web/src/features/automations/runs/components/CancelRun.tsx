import { useState } from 'react';
import { useAction } from '../../../../api/useLoad';
import { Dialog } from '../../../../components/Dialog';
import { ErrorNotice } from '../../../../components/Status';
import { cancelRun } from '../api/runs';

/**
 * "Cancel run" for a running run, whatever started it (`POST /workflows-api/runs/:runId/cancel`), behind a
 * confirmation: the run stops before its next step, and an agent's task reads cancelled at once.
 */
export function CancelRun({ runId, agentTask, onCancelled }: { runId: string; agentTask: boolean; onCancelled: () => void }) {
  const [asking, setAsking] = useState(false);
  const cancel = useAction(async () => {
    await cancelRun(runId);
    setAsking(false);
    onCancelled();
  });
  const close = () => {
    setAsking(false);
    cancel.clear();
  };
  return (
    <>
      <button type="button" className="button button-danger button-small" onClick={() => setAsking(true)}>
        Cancel run
      </button>
      <Dialog
        open={asking}
        title="Cancel this run?"
        onClose={close}
        actions={
          <>
            <button type="button" className="button" onClick={close} disabled={cancel.pending}>
              Keep running
            </button>
            <button type="button" className="button button-danger" onClick={() => void cancel.run()} disabled={cancel.pending}>
              {cancel.pending ? 'Cancelling…' : 'Cancel run'}
            </button>
          </>
        }
      >
        <p>
          The run stops before its next step: a waiting delay is cut short, a step already sent finishes, the steps after it do not run. It is recorded as
          cancelled.
        </p>
        {agentTask && <p>An agent started it as a task: the agent sees its task cancelled.</p>}
        <ErrorNotice error={cancel.error} title="Not cancelled." />
      </Dialog>
    </>
  );
}
