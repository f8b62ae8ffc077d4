import type { components } from '../../../api/schema';
import { formatMoney, formatNumber } from '../../../format';

type Kpis = components['schemas']['AnalyticsKpis'];

/**
 * The six headline figures of spec 2.11; money in the reporting currency. Each tile says what it counts and over
 * which days: `active_players_today` is, by the spec's definition, players active in the last 7 days, so its tile
 * says so rather than "today".
 */
export function KpiTiles({ kpis, currency, range }: { kpis: Kpis; currency: string; range: string }) {
  const tiles: Array<[string, string, string]> = [
    ['Total players', formatNumber(kpis.total_players), 'all players, not erased'],
    ['Active players (last 7 days)', formatNumber(kpis.active_players_today), 'any event in the last 7 UTC days, today included'],
    ['Gross gaming revenue', formatMoney(kpis.total_ggr, currency), `bets − wins, ${range}`],
    ['Deposits', formatMoney(kpis.total_deposits, currency), `completed, ${range}`],
    ['Withdrawals', formatMoney(kpis.total_withdrawals, currency), `completed, ${range}`],
    ['Average deposit', formatMoney(kpis.avg_deposit, currency), `deposits ÷ depositing players, ${range}`],
  ];
  return (
    <ul className="tiles" aria-label="Key figures">
      {tiles.map(([label, value, note]) => (
        <li className="tile" key={label}>
          <span className="tile-label">{label}</span>
          <span className="tile-value" data-kpi={label}>
            {value}
          </span>
          <span className="tile-note">{note}</span>
        </li>
      ))}
    </ul>
  );
}
