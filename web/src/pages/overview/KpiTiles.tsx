import type { components } from '../../api/schema';
import { formatMoney, formatNumber } from '../../format';

type Kpis = components['schemas']['AnalyticsKpis'];

/** The six headline figures of spec 2.11; money in the reporting currency. */
export function KpiTiles({ kpis, currency }: { kpis: Kpis; currency: string }) {
  const tiles: Array<[string, string]> = [
    ['Total players', formatNumber(kpis.total_players)],
    ['Active players today', formatNumber(kpis.active_players_today)],
    ['Gross gaming revenue', formatMoney(kpis.total_ggr, currency)],
    ['Deposits', formatMoney(kpis.total_deposits, currency)],
    ['Withdrawals', formatMoney(kpis.total_withdrawals, currency)],
    ['Average deposit', formatMoney(kpis.avg_deposit, currency)],
  ];
  return (
    <ul className="tiles" aria-label="Key figures">
      {tiles.map(([label, value]) => (
        <li className="tile" key={label}>
          <span className="tile-label">{label}</span>
          <span className="tile-value" data-kpi={label}>
            {value}
          </span>
        </li>
      ))}
    </ul>
  );
}
