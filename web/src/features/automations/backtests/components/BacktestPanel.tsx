import { plural } from '../../../../format';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useAction } from '../../../../api/useLoad';
import type { components } from '../../../../api/schema';
import { TextField } from '../../../../components/Field';
import { ErrorNotice, StatusBadge } from '../../../../components/Status';
import { BacktestResultView } from './BacktestResult';
import './backtest.css';
import { cancelBacktest, getBacktest, startBacktest } from '../api/backtests';

type Backtest = components['schemas']['WorkflowBacktest'];
type Definition = { nodes: unknown[]; edges?: unknown[] };

const POLL_MS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `<input type="datetime-local">` reads and writes local wall time without a zone. */
const localInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Polls `GET /backtests/:id` while the backtest runs. */
function usePolled(backtest: Backtest | null, onChange: (latest: Backtest) => void): void {
  const changed = useRef(onChange);
  changed.current = onChange;
  const running = backtest?.status === 'running';
  const backtestId = backtest?.id;
  useEffect(() => {
    if (!running || !backtestId) return;
    const timer = setInterval(() => {
      void getBacktest(backtestId).then(
        (latest) => changed.current(latest),
        () => undefined,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, backtestId]);
}

/**
 * The editor's Backtest tab (docs/compliance.md "Backtest"): replays the stored events of a period through the draft in
 * the editor — unsaved changes included — and through the current version, with every action stubbed, then shows what
 * would have happened and the difference, with links to the players.
 */
export function BacktestPanel({ workflowId, draft, unsaved, editable }: { workflowId: string; draft: Definition; unsaved: boolean; editable: boolean }) {
  const [from, setFrom] = useState(() => localInput(new Date(Date.now() - 7 * DAY_MS)));
  const [to, setTo] = useState(() => localInput(new Date(Date.now() + 60_000)));
  const [backtest, setBacktest] = useState<Backtest | null>(null);
  usePolled(backtest, setBacktest);
  const start = useAction(async () => {
    const body = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), definition: { nodes: draft.nodes, edges: draft.edges ?? [] } };
    setBacktest(await startBacktest(workflowId, body));
  });
  const cancel = useAction(async () => {
    if (!backtest) return;
    setBacktest(await cancelBacktest(backtest.id));
  });
  const running = backtest?.status === 'running';

  return (
    <section aria-labelledby="backtest-title" className="backtest-panel">
      <h2 id="backtest-title">Backtest</h2>
      <p>
        Replays this organisation&apos;s stored events of a period through the workflow{' '}
        {unsaved ? 'as it is in the editor, unsaved changes included' : 'as it is saved'}, and through the current version, without performing any action: no
        email, no call, no change. Conditions are evaluated for real; actions are counted.
      </p>
      <div className="backtest-form">
        <TextField label="Events recorded from" type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
        <TextField label="Events recorded before" type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
        <button
          type="button"
          className="button button-primary"
          onClick={() => void start.run()}
          disabled={!editable || start.pending || running || !from || !to}
        >
          {start.pending ? 'Starting…' : 'Run backtest'}
        </button>
        {running && (
          <button type="button" className="button" onClick={() => void cancel.run()} disabled={cancel.pending}>
            Cancel backtest
          </button>
        )}
      </div>
      {!editable && <p className="hint">Only the Owner or an Admin can run a backtest.</p>}
      <ErrorNotice error={start.error ?? cancel.error} title="Not backtested." />
      {backtest && (
        <div className="backtest-progress">
          <p>
            Backtest <code>{backtest.id}</code> <StatusBadge status={backtest.status} />
          </p>
          <progress
            max={Math.max(backtest.total, 1)}
            value={Math.min(backtest.processed, Math.max(backtest.total, 1))}
            aria-label={`Replayed ${backtest.processed} of ${plural(backtest.total, 'event')}`}
          />
          <p aria-live="polite">
            {backtest.processed} of {plural(backtest.total, 'event')} replayed
          </p>
          {backtest.error && <p role="alert">{backtest.error.message}</p>}
        </div>
      )}
      {backtest?.result && <BacktestResultView result={backtest.result} baselineVersion={backtest.baselineVersion} />}
      <p className="hint">
        What a backtest can and cannot know: <Link to="/docs">the API reference</Link> and docs/compliance.md.
      </p>
    </section>
  );
}
