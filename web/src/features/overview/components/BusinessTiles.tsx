import { LoadStatus } from '../../../components/Status';
import { formatDate, formatMoney, formatNumber, formatPercent } from '../../../format';
import { useBusiness } from '../api/analytics';

/**
 * First business figures (issue 45, `GET /business`): FTDs and conversion beside the same figures of the period
 * before, each tile with its definition (docs/analytics.md "Business figures"), so nobody reads them as all deposits
 * or as all players. One currency: the reporting currency, as the KPI tiles.
 */
export function BusinessTiles({ range, version }: { range: string; version: number }) {
  const load = useBusiness(range, version);
  const data = load.data?.data;
  if (!data) return <LoadStatus load={load} />;
  const { current, previous, currency } = data;
  const before = `previous period ${formatDate(data.previous_range.start)} – ${formatDate(data.previous_range.end)}`;
  const tiles: Array<[label: string, value: string, previous: string, definition: string]> = [
    ['First-time deposits', formatNumber(current.ftd_count), formatNumber(previous.ftd_count), 'players whose first completed deposit ever fell in the range'],
    ['First-deposit amount', formatMoney(current.ftd_amount, currency), formatMoney(previous.ftd_amount, currency), 'Σ of those first deposits'],
    [
      'Conversion from registration',
      formatPercent(current.conversion_rate),
      formatPercent(previous.conversion_rate),
      `players registered in the range who made a first completed deposit by its end (${formatNumber(current.converted_players)} of ${formatNumber(current.registrations)})`,
    ],
  ];
  return (
    <>
      <LoadStatus load={load} />
      <ul className="tiles" aria-label="Business figures">
        {tiles.map(([label, value, earlier, definition]) => (
          <li className="tile" key={label}>
            <span className="tile-label">{label}</span>
            <span className="tile-value" data-business={label}>
              {value}
            </span>
            <span className="tile-note">
              {definition}; {before}: <span data-business-previous={label}>{earlier}</span>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
