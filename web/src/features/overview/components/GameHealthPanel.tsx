import { LoadStatus } from '../../../components/Status';
import { formatMoney, formatNumber, formatPercent } from '../../../format';
import { useGameHealth } from '../api/analytics';
import { FigureTable } from './FigureTable';

/** Actual RTP, hold and cash vs bonus GGR of the ten most staked games (`/game-health`, docs/analytics.md "Game health"). */
export function GameHealthPanel({ range, version }: { range: string; version: number }) {
  const load = useGameHealth(range, version);
  const data = load.data?.data;
  return (
    <section className="panel" aria-labelledby="game-health-title">
      <h2 id="game-health-title">Game health</h2>
      <LoadStatus load={load} />
      {data && data.rows.length === 0 && <p>No game rounds in the range.</p>}
      {data && data.rows.length > 0 && (
        <>
          <p className="hint">
            RTP: wins ÷ stakes. Hold: GGR ÷ stakes. Bonus GGR: on stakes paid from bonus money. All games: RTP {formatPercent(data.totals.rtp)}, hold{' '}
            {formatPercent(data.totals.hold)}.
          </p>
          <FigureTable
            caption={`Games by stakes in the range, ${data.currency}`}
            rows={data.rows}
            rowKey={(row) => row.name ?? ''}
            columns={[
              { label: 'Game', cell: (row) => row.name },
              { label: 'Stakes', num: true, cell: (row) => formatMoney(row.turnover, data.currency) },
              { label: 'RTP', num: true, cell: (row) => formatPercent(row.rtp) },
              { label: 'Hold', num: true, cell: (row) => formatPercent(row.hold) },
              { label: 'Cash GGR', num: true, cell: (row) => formatMoney(row.cash_ggr, data.currency) },
              { label: 'Bonus GGR', num: true, cell: (row) => formatMoney(row.bonus_ggr, data.currency) },
              { label: 'Players', num: true, cell: (row) => formatNumber(row.players) },
            ]}
          />
        </>
      )}
    </section>
  );
}
