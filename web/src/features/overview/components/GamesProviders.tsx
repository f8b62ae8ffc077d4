import { LoadStatus } from '../../../components/Status';
import { formatMajor, formatMoney, formatNumber, formatPercent, toMajor } from '../../../format';
import { COLORS, LazyChart } from './charts';
import { useProviders, useTopGames } from '../api/analytics';

/**
 * Top games by rounds (`/games`): a bar chart of GGR and the full rows. The Overview's tables take focus
 * (`tabIndex`): on a phone a table scrolls inside its own box (styles.css), which a keyboard must be able to reach.
 */
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
          <div className="table-wrap">
            <table tabIndex={0}>
              <caption>Games by rounds, all time, {data.currency}</caption>
              <thead>
                <tr>
                  <th scope="col">Game</th>
                  <th scope="col" className="num">
                    Rounds
                  </th>
                  <th scope="col" className="num">
                    GGR
                  </th>
                  <th scope="col" className="num">
                    Players
                  </th>
                  <th scope="col" className="num">
                    Average bet
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.game_name}>
                    <td>{row.game_name}</td>
                    <td className="num">{formatNumber(row.rounds)}</td>
                    <td className="num">{formatMoney(row.ggr, data.currency)}</td>
                    <td className="num">{formatNumber(row.unique_players)}</td>
                    <td className="num">{formatMoney(row.avg_bet, data.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
          <div className="table-wrap">
            <table tabIndex={0}>
              <caption>Payment providers, all time, {data.currency}</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col" className="num">
                    Transactions
                  </th>
                  <th scope="col" className="num">
                    Completed deposits
                  </th>
                  <th scope="col" className="num">
                    Completed withdrawals
                  </th>
                  <th scope="col" className="num">
                    Success rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.provider}>
                    <td>{row.provider}</td>
                    <td className="num">{formatNumber(row.volume)}</td>
                    <td className="num">{formatMoney(row.completed_deposit_amount, data.currency)}</td>
                    <td className="num">{formatMoney(row.completed_withdrawal_amount, data.currency)}</td>
                    <td className="num">{formatPercent(row.success_rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
