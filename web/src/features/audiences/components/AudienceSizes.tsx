import { LoadStatus } from '../../../components/Status';
import { formatDate, formatNumber } from '../../../format';
import { FigureTable } from '../../overview/components/FigureTable';
import { LazyChart } from '../../overview/components/charts';
import { useAudienceSizes } from '../api/audiences';

const COLOR = '#1d4ed8';

/**
 * The size at the end of each UTC day of the last 90 a pass judged the audience (`/sizes`), as bars — the Overview's
 * chart, so the axis holds zero — with the day's entries and exits in the table under it.
 */
export function AudienceSizes({ id, evaluatedAt }: { id: string; evaluatedAt: string | null }) {
  const sizes = useAudienceSizes(id, evaluatedAt);
  const rows = sizes.data?.sizes ?? [];
  const labels = rows.map((row) => formatDate(row.day));
  return (
    <section className="panel" aria-labelledby="sizes-title">
      <h2 id="sizes-title">Size over time</h2>
      <LoadStatus load={sizes} />
      {sizes.data && rows.length === 0 && <p>No size recorded yet: the first pass records the day’s size.</p>}
      {rows.length > 0 && (
        <>
          <LazyChart
            summary={`Members at the end of each day, ${rows.length} ${rows.length === 1 ? 'day' : 'days'} from ${labels[0]} to ${labels.at(-1)}; the table below lists every figure`}
            labels={labels}
            unit="Players"
            format={(value) => (Number.isInteger(value) ? formatNumber(value) : '')}
            series={[{ label: 'Members', values: rows.map((row) => row.size), color: COLOR }]}
            height={200}
          />
          <details>
            <summary>Show the sizes as a table</summary>
            <FigureTable
              caption="Members per day, with the players who entered and left that day"
              rows={rows.map((row, index) => ({ ...row, label: labels[index] }))}
              rowKey={(row) => row.day}
              columns={[
                { label: 'Day', cell: (row) => row.label },
                { label: 'Members', num: true, cell: (row) => formatNumber(row.size) },
                { label: 'Entered', num: true, cell: (row) => formatNumber(row.entered) },
                { label: 'Left', num: true, cell: (row) => formatNumber(row.exited) },
              ]}
            />
          </details>
        </>
      )}
    </section>
  );
}
