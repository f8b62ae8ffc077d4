import { useState } from 'react';
import { SelectField } from '../../../components/Field';
import { LoadStatus } from '../../../components/Status';
import { formatDate, formatMajor, formatMonth, formatMoney, formatNumber, toMajor } from '../../../format';
import { COLORS, LazyChart } from './charts';
import { useRevenue } from '../api/analytics';
import { FigureTable } from './FigureTable';

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

/** What a bucket's `date` (its first day) is called: the day, the week's Monday, or the month. */
const BUCKET = {
  daily: { noun: 'day', column: 'Day', label: formatDate },
  weekly: { noun: 'week', column: 'Week starting', label: formatDate },
  monthly: { noun: 'month', column: 'Month', label: formatMonth },
} as const;

/**
 * The revenue series (`/revenue`) with its period and range pickers: each bucket is a period's total, so it is a bar
 * (GGR and deposits side by side), labelled as the table labels it; the table lists every figure.
 */
export function RevenuePanel({ version }: { version: number }) {
  const [period, setPeriod] = useState<'daily' | 'weekly' | 'monthly'>('daily');
  const [range, setRange] = useState('');
  const revenue = useRevenue({ period, ...(range ? { range } : {}) }, version);
  const data = revenue.data?.data;
  const rows = data?.rows ?? [];
  const bucket = BUCKET[data?.period ?? period];
  const labels = rows.map((row) => bucket.label(row.date));
  const empty = rows.every((row) => row.total_ggr === 0 && row.total_deposits === 0 && row.active_players === 0);
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
      {data && empty && <p>No revenue in this range yet. Game rounds and deposits appear here once events are ingested.</p>}
      {data && !empty && (
        <>
          <LazyChart
            summary={`Gross gaming revenue and deposits per ${bucket.noun} in ${data.currency}, ${rows.length} bars from ${labels[0]} to ${labels.at(-1)}; the table below lists every figure`}
            labels={labels}
            unit={data.currency}
            format={(value) => formatMajor(value, data.currency)}
            series={[
              { label: `GGR (${data.currency})`, values: rows.map((row) => toMajor(row.total_ggr, data.currency)), color: COLORS.ggr },
              { label: `Deposits (${data.currency})`, values: rows.map((row) => toMajor(row.total_deposits, data.currency)), color: COLORS.deposits },
            ]}
          />
          <details>
            <summary>Show the figures as a table</summary>
            <FigureTable
              caption={`Revenue by ${bucket.noun}, ${data.currency}`}
              rows={rows.map((row, index) => ({ ...row, label: labels[index] }))}
              rowKey={(row) => row.date}
              columns={[
                { label: bucket.column, cell: (row) => row.label },
                { label: 'GGR', num: true, cell: (row) => formatMoney(row.total_ggr, data.currency) },
                { label: 'Deposits', num: true, cell: (row) => formatMoney(row.total_deposits, data.currency) },
                { label: 'Depositing players', num: true, cell: (row) => formatNumber(row.depositing_players) },
                { label: 'Active players', num: true, cell: (row) => formatNumber(row.active_players) },
              ]}
            />
          </details>
        </>
      )}
    </section>
  );
}
