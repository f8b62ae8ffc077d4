import { LoadStatus } from '../../../components/Status';
import { formatMajor, formatMoney, formatNumber, formatPercent, toMajor } from '../../../format';
import { COLORS, LazyChart } from './charts';
import { useProviders, useTopGames } from '../api/analytics';
import { FigureTable } from './FigureTable';

/** Top games by rounds (`/games`): a bar chart of GGR and the full rows. */
export function GamesPanel({ version }: { version: number }) {
  const games = useTopGames(version);
  const data = games.data?.data;
  const rows = data?.games ?? [];
  return (
    <section className="panel" aria-labelledby="games-title">
      <h2 id="games-title">Games</h2>
      <LoadStatus load={games} />
      {data && rows.length === 0 && (
        <p>
          No game rounds yet. They come from events of type <code>game_activity</code>.
        </p>
      )}
      {data && rows.length > 0 && (
        <>
          <LazyChart
            summary={`GGR of the ${rows.length} games listed below, in ${data.currency}, all time`}
            labels={rows.map((row) => row.game_name)}
            unit={data.currency}
            format={(value) => formatMajor(value, data.currency)}
            series={[{ label: `GGR (${data.currency})`, values: rows.map((row) => toMajor(row.ggr, data.currency)), color: COLORS.ggr }]}
            height={220}
          />
          <FigureTable
            caption={`Games by rounds, all time, ${data.currency}`}
            rows={rows}
            rowKey={(row) => row.game_name}
            columns={[
              { label: 'Game', cell: (row) => row.game_name },
              { label: 'Rounds', num: true, cell: (row) => formatNumber(row.rounds) },
              { label: 'GGR', num: true, cell: (row) => formatMoney(row.ggr, data.currency) },
              { label: 'Players', num: true, cell: (row) => formatNumber(row.unique_players) },
              { label: 'Average bet', num: true, cell: (row) => formatMoney(row.avg_bet, data.currency) },
            ]}
          />
        </>
      )}
    </section>
  );
}

/**
 * Payment providers (`/providers`): transactions per provider (every type and status), then completed deposits and
 * completed withdrawals apart — never one "amount" adding deposits, withdrawals and failed attempts together.
 */
export function ProvidersPanel({ version }: { version: number }) {
  const providers = useProviders(version);
  const data = providers.data?.data;
  const rows = data?.providers ?? [];
  return (
    <section className="panel" aria-labelledby="providers-title">
      <h2 id="providers-title">Payment providers</h2>
      <LoadStatus load={providers} />
      {data && rows.length === 0 && (
        <p>
          No payments yet. They come from <code>transaction</code> events carrying a <code>provider</code>.
        </p>
      )}
      {data && rows.length > 0 && (
        <>
          <LazyChart
            summary={`Transactions per payment provider (every type and status), ${rows.length} providers listed below`}
            labels={rows.map((row) => row.provider)}
            unit="Transactions"
            format={(value) => (Number.isInteger(value) ? formatNumber(value) : '')}
            series={[{ label: 'Transactions (all types and statuses)', values: rows.map((row) => row.volume), color: COLORS.volume }]}
            height={220}
          />
          <p className="hint">Money columns count completed transactions only; the success rate is completed ÷ all.</p>
          <FigureTable
            caption={`Payment providers, all time, ${data.currency}`}
            rows={rows}
            rowKey={(row) => row.provider}
            columns={[
              { label: 'Provider', cell: (row) => row.provider },
              { label: 'Transactions', num: true, cell: (row) => formatNumber(row.volume) },
              { label: 'Completed deposits', num: true, cell: (row) => formatMoney(row.completed_deposit_amount, data.currency) },
              { label: 'Completed withdrawals', num: true, cell: (row) => formatMoney(row.completed_withdrawal_amount, data.currency) },
              { label: 'Success rate', num: true, cell: (row) => formatPercent(row.success_rate) },
            ]}
          />
        </>
      )}
    </section>
  );
}
