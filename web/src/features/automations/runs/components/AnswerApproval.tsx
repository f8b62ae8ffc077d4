import { useState } from 'react';
import { useAction } from '../../../../api/useLoad';
import { ErrorNotice } from '../../../../components/Status';
import { formatDateTime } from '../../../../format';
import { answerApproval } from '../api/runs';

/**
 * The question of the approval step a run waits in, and — for the Owner and Admins — "Approve" and "Refuse"
 * (`POST /workflows-api/runs/:runId/approval`); nobody answering by `until` refuses.
 */
export function AnswerApproval({
  runId,
  awaiting,
  canAnswer,
  onAnswered,
}: {
  runId: string;
  awaiting: { nodeId: string; message: string; until: string };
  canAnswer: boolean;
  onAnswered: () => void;
}) {
  const [comment, setComment] = useState('');
  const answer = useAction(async (approved: boolean) => {
    const body = { approved, ...(comment.trim() ? { comment: comment.trim() } : {}) };
    await answerApproval(runId, body);
    onAnswered();
  });
  return (
    <section className="notice" aria-label="Waiting for approval">
      <p>
        <strong>Waiting for approval</strong> (step <code>{awaiting.nodeId}</code>, refused if nobody answers by {formatDateTime(awaiting.until)}):
      </p>
      <blockquote>{awaiting.message}</blockquote>
      {canAnswer && (
        <div className="row-actions">
          <label>
            Comment (optional)
            <input value={comment} maxLength={1000} onChange={(event) => setComment(event.target.value)} />
          </label>
          <button type="button" className="button" onClick={() => void answer.run(true)} disabled={answer.pending}>
            Approve
          </button>
          <button type="button" className="button button-danger" onClick={() => void answer.run(false)} disabled={answer.pending}>
            Refuse
          </button>
        </div>
      )}
      <ErrorNotice error={answer.error} title="Not answered." />
    </section>
  );
}
