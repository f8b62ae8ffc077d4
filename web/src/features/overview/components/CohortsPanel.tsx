import { LoadStatus } from '../../../components/Status';
import { formatDate, formatMoney, formatMonth, formatNumber, formatPercent } from '../../../format';
import { useCohorts } from '../api/analytics';
import { FigureTable } from './FigureTable';

/** `rate` is null while no player of the cohort has reached day N: shown as "not yet", never as 0 %. */
const retention = (entry: { rate: number | null; retained: number; matured: number }) =>
  entry.rate === null ? 'not yet' : `${formatPercent(entry.rate)} (${formatNumber(entry.retained)} of ${formatNumber(entry.matured)})`;

/** FTD cohorts of the last 180 days by month (`/cohorts`, docs/analytics.md "Cohorts"). */
export function CohortsPanel({ version }: { version: number }) {
  const load = useCohorts(version);
  const data = load.data?.data;
  return (
    <section className="panel" aria-labelledby="cohorts-title">
      <h2 id="cohorts-title">First-deposit cohorts</h2>
      <LoadStatus load={load} />
      {data && (
        <>
          <p className="hint">
            Players by the month of their first completed deposit ({formatDate(data.range.start)} – {formatDate(data.range.end)}), in {data.currency}. Dn:
            players with a round or a completed deposit on exactly day n after it, of those who have reached day n. NGR: GGR − bonus cost − taxes − other
            deductions since the first deposit,{' '}
            {data.ngr_definition_version === null ? 'no NGR definition saved' : `definition version ${data.ngr_definition_version}`}. Churned: no activity for{' '}
            {data.churn_days} days.
          </p>
          <FigureTable
            caption={`Cohorts by month of first deposit, ${data.currency}`}
            rows={data.cohorts}
            rowKey={(row) => row.cohort}
            columns={[
              { label: 'Cohort', cell: (row) => formatMonth(row.cohort) },
              { label: 'Players', num: true, cell: (row) => formatNumber(row.players) },
              { label: 'First deposits', num: true, cell: (row) => formatMoney(row.ftd_amount, data.currency) },
              { label: 'D1', num: true, cell: (row) => retention(row.retention.d1) },
              { label: 'D7', num: true, cell: (row) => retention(row.retention.d7) },
              { label: 'D30', num: true, cell: (row) => retention(row.retention.d30) },
              { label: 'GGR per player', num: true, cell: (row) => formatMoney(row.ggr_per_player, data.currency) },
              { label: 'NGR per player', num: true, cell: (row) => formatMoney(row.ngr_per_player, data.currency) },
              { label: 'Churned', num: true, cell: (row) => formatNumber(row.churned_players) },
            ]}
          />
        </>
      )}
    </section>
  );
}
