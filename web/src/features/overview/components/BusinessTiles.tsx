import { LoadStatus } from '../../../components/Status';
import { formatDate, formatMoney, formatNumber, formatPercent } from '../../../format';
import { useBusiness } from '../api/analytics';

/**
 * Business figures (issue 45, `GET /business`): FTDs, conversion, NGR with the version of its definition and bonus
 * cost, beside the same figures of the period before, each tile with its definition (docs/analytics.md "Business figures"), so nobody reads them as all deposits
 * or as all players. One currency: the reporting currency, as the KPI tiles.
 */
export function BusinessTiles({ range, version }: { range: string; version: number }) {
  const load = useBusiness(range, version);
  const data = load.data?.data;
  if (!data) return <LoadStatus load={load} />;
  const { current, previous, currency, ngr } = data;
  const ngrDefinition =
    ngr.definition_version === null
      ? 'GGR − bonus cost; no taxes or other deductions declared yet'
      : `GGR − bonus cost − taxes − other deductions, definition version ${ngr.definition_version}`;
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
    ['Net gaming revenue', formatMoney(ngr.current.ngr, currency), formatMoney(ngr.previous.ngr, currency), ngrDefinition],
    ['Bonus cost', formatMoney(ngr.current.bonus_cost, currency), formatMoney(ngr.previous.bonus_cost, currency), 'Σ of completed bonus transactions'],
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
