import { Link } from 'react-router';
import type { components } from '../../../../api/schema';

type Result = NonNullable<components['schemas']['WorkflowBacktestResult']>;
type PlayerList = Result['players']['affected'];
type StepTally = Result['backtested']['steps'][string];
const STEP_COLUMNS = ['completed', 'skipped', 'failed', 'undecidable'] as const;

/**
 * Players the current version reaches: the backtested set less those it newly reaches, plus those it no longer
 * reaches (the totals are of whole sets, so the count is exact even when the id lists are cut).
 */
export const baselinePlayers = (players: Result['players']) => players.affected.total - players.newlyAffected.total + players.noLongerAffected.total;

/** A step's count on both sides: `3 (current 2)` when they differ, the one number when they agree. */
function BothSides({ backtested, current }: { backtested: number | undefined; current: number | undefined }) {
  if (backtested === current) return <>{backtested ?? 0}</>;
  return (
    <>
      {backtested ?? '—'} <span className="hint">(current {current ?? '—'})</span>
    </>
  );
}

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
  const steps = [...new Set([...Object.keys(backtested.steps), ...Object.keys(baseline.steps)])].sort();
  const tallyOf = (side: Record<string, StepTally>, nodeId: string) => side[nodeId];
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
            <th scope="row">Players affected</th>
            <td>{result.players.affected.total}</td>
            <td>{baselinePlayers(result.players)}</td>
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
      <p className="hint">Each count is the backtested definition&apos;s; where the current version (version {baselineVersion}) differs, its count follows.</p>
      <table aria-label="Steps, backtested and current">
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
          {steps.map((nodeId) => {
            const [mine, current] = [tallyOf(backtested.steps, nodeId), tallyOf(baseline.steps, nodeId)];
            return (
              <tr key={nodeId}>
                <th scope="row">
                  <code>{nodeId}</code>
                  {!current && <span className="hint"> (new)</span>}
                  {!mine && <span className="hint"> (removed)</span>}
                </th>
                {STEP_COLUMNS.map((column) => (
                  <td key={column}>
                    <BothSides backtested={mine?.[column]} current={current?.[column]} />
                  </td>
                ))}
              </tr>
            );
          })}
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
