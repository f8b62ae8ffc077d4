import { LoadStatus } from '../../../components/Status';
import { formatMoney, formatNumber } from '../../../format';
import { useSplits } from '../api/analytics';
import { FigureTable } from './FigureTable';

/** The range's figures by the player's country (`/splits?by=country`, docs/analytics.md "Splits"). */
export function SplitsPanel({ range, version }: { range: string; version: number }) {
  const load = useSplits(range, version);
  const data = load.data?.data;
  return (
    <section className="panel" aria-labelledby="splits-title">
      <h2 id="splits-title">By country</h2>
      <LoadStatus load={load} />
      {data && data.rows.length === 0 && <p>No activity in the range.</p>}
      {data && data.rows.length > 0 && (
        <FigureTable
          caption="By the player's country (other: none or not an ISO code)"
          rows={data.rows}
          rowKey={(row) => `${row.key}-${row.currency}`}
          columns={[
            { label: 'Country', cell: (row) => row.key },
            { label: 'Active players', num: true, cell: (row) => formatNumber(row.active_players) },
            { label: 'Deposits', num: true, cell: (row) => formatMoney(row.deposits, row.currency) },
            { label: 'GGR', num: true, cell: (row) => formatMoney(row.ggr, row.currency) },
            { label: 'FTDs', num: true, cell: (row) => formatNumber(row.ftd_count) },
          ]}
        />
      )}
    </section>
  );
}
