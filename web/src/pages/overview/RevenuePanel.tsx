import { useState } from 'react';
import { api, call, json } from '../../api/client';
import { useLoad } from '../../api/useLoad';
import { SelectField } from '../../components/Field';
import { LoadStatus } from '../../components/Status';
import { formatDate, formatMoney, formatNumber, toMajor } from '../../format';
import { COLORS, LazyChart } from './charts';

const PERIODS = [
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['monthly', 'Monthly'],
] as const;
const RANGES = [
  ['', 'Period default (30 days, 12 weeks, 12 months)'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
] as const;

/** The revenue series (`/revenue`) with its period and range pickers, as a chart and as a table. */
export function RevenuePanel({ version }: { version: number }) {
  const [period, setPeriod] = useState<'daily' | 'weekly' | 'monthly'>('daily');
  const [range, setRange] = useState('');
  const revenue = useLoad(
    async () => json(await call(api.GET('/analytics-api/analytics/revenue', { params: { query: { period, ...(range ? { range } : {}) } } }))),
    [period, range, version],
  );
  const data = revenue.data?.data;
  const rows = data?.rows ?? [];
  return (
    <section className="panel" aria-labelledby="revenue-title">
      <h2 id="revenue-title">Revenue</h2>
      <div className="toolbar">
        <SelectField label="Period" value={period} onChange={(event) => setPeriod(event.target.value as typeof period)}>
          {PERIODS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Range" value={range} onChange={(event) => setRange(event.target.value)}>
          {RANGES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      </div>
      <LoadStatus load={revenue} />
      {data && rows.length === 0 && <p>No revenue in this range yet. Game rounds and deposits appear here once events are ingested.</p>}
      {data && rows.length > 0 && (
        <>
          <LazyChart
            kind="line"
            summary={`${period} gross gaming revenue and deposits in ${data.currency}, ${rows.length} points from ${rows[0]?.date} to ${rows.at(-1)?.date}; the table below lists every figure`}
            x={rows.map((row) => Date.parse(`${row.date}T00:00:00Z`) / 1000)}
            series={[
              { label: `GGR (${data.currency})`, values: rows.map((row) => toMajor(row.total_ggr, data.currency)), color: COLORS.ggr },
              { label: `Deposits (${data.currency})`, values: rows.map((row) => toMajor(row.total_deposits, data.currency)), color: COLORS.deposits },
            ]}
          />
          <details>
            <summary>Show the figures as a table</summary>
            <div className="table-wrap">
              <table>
                <caption>Revenue by {period === 'daily' ? 'day' : period === 'weekly' ? 'week' : 'month'}</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col" className="num">
                      GGR
                    </th>
                    <th scope="col" className="num">
                      Deposits
                    </th>
                    <th scope="col" className="num">
                      Depositing players
                    </th>
                    <th scope="col" className="num">
                      Active players
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.date}>
                      <td>{formatDate(row.date)}</td>
                      <td className="num">{formatMoney(row.total_ggr, data.currency)}</td>
                      <td className="num">{formatMoney(row.total_deposits, data.currency)}</td>
                      <td className="num">{formatNumber(row.depositing_players)}</td>
                      <td className="num">{formatNumber(row.active_players)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
