import { Link } from 'react-router';
import type { components } from '../../api/schema';

type Result = NonNullable<components['schemas']['WorkflowBacktestResult']>;
type PlayerList = Result['players']['affected'];

/** Players by external id, each a link to the player; the total says when the list is cut. */
function Players({ title, list }: { title: string; list: PlayerList }) {
  return (
    <div className="backtest-players">
      <h4>
        {title} ({list.total})
      </h4>
      {list.ids.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul aria-label={title}>
          {list.ids.map((id) => (
            <li key={id}>
              <Link to={`/players/${encodeURIComponent(id)}`}>{id}</Link>
            </li>
          ))}
        </ul>
      )}
      {list.total > list.ids.length && (
        <p className="hint">
          The first {list.ids.length} of {list.total}.
        </p>
      )}
    </div>
  );
}

/** A backtest's result: the draft beside the current version, the diff, the conditions and what the actions would send. */
export function BacktestResultView({ result, baselineVersion }: { result: Result; baselineVersion: number }) {
  const { backtested, baseline } = result;
  const undecided = backtested.conditions.filter((condition) => condition.decidedBy === 'undecidable');
  const steps = Object.keys(backtested.steps).sort();
  return (
    <div className="backtest-result" aria-label="Backtest result">
      <h3>Result</h3>
      <table>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">Backtested</th>
            <th scope="col">Current (version {baselineVersion})</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Runs that would start</th>
            <td>{backtested.runs}</td>
            <td>{baseline.runs}</td>
          </tr>
          <tr>
            <th scope="row">Actions / AI Actions consumed</th>
            <td>
              {backtested.consumed.actions} / {backtested.consumed.aiActions}
            </td>
            <td>
              {baseline.consumed.actions} / {baseline.consumed.aiActions}
            </td>
          </tr>
          <tr>
            <th scope="row">Runs not decidable</th>
            <td>{backtested.undecidableRuns}</td>
            <td>{baseline.undecidableRuns}</td>
          </tr>
        </tbody>
      </table>
      <h4>Difference from the current version</h4>
      <div className="backtest-diff">
        <Players title="Newly affected players" list={result.players.newlyAffected} />
        <Players title="No longer affected players" list={result.players.noLongerAffected} />
      </div>
      {result.actionChanges.length === 0 ? (
        <p>The same actions would fire.</p>
      ) : (
        <ul aria-label="Actions added or removed">
          {result.actionChanges.map((change) => (
            <li key={change.nodeId}>
              <code>{change.nodeId}</code> ({change.type}): {change.backtested} instead of {change.active}
              {change.active === 0 ? ' — added' : change.backtested === 0 ? ' — removed' : ''}
            </li>
          ))}
        </ul>
      )}
      <h4>Steps</h4>
      <table>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Completed</th>
            <th scope="col">Skipped</th>
            <th scope="col">Failed</th>
            <th scope="col">Undecidable</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((nodeId) => (
            <tr key={nodeId}>
              <th scope="row">
                <code>{nodeId}</code>
              </th>
              <td>{backtested.steps[nodeId]!.completed}</td>
              <td>{backtested.steps[nodeId]!.skipped}</td>
              <td>{backtested.steps[nodeId]!.failed}</td>
              <td>{backtested.steps[nodeId]!.undecidable}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {undecided.length > 0 && (
        <p role="note">
          Undecidable: {undecided.map((condition) => `${condition.nodeId} reads ${condition.reads.join(', ')}`).join('; ')} — a stubbed action&apos;s output,
          which no sample declares.
        </p>
      )}
      <Players title="Players affected" list={result.players.affected} />
      {backtested.samples.length > 0 && (
        <>
          <h4>What the actions would send (not sent)</h4>
          <ul aria-label="Would-be actions">
            {backtested.samples.map((sample, index) => (
              <li key={`${sample.nodeId}-${index}`}>
                <code>{sample.nodeId}</code> {sample.method} {sample.target} {sample.template && <q>{sample.template}</q>} for {sample.playerId ?? 'no player'}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
