import { LoadStatus } from '../../../components/Status';
import { formatNumber } from '../../../format';
import { useSaferGambling } from '../api/analytics';

/** Safer-gambling figures (`/safer-gambling`, docs/analytics.md "Safer gambling"), each tile with its definition. */
export function SaferGamblingTiles({ range, version }: { range: string; version: number }) {
  const load = useSaferGambling(range, version);
  const figures = load.data?.data.figures;
  if (!figures) return <LoadStatus load={load} />;
  const { players, marketing, harm_indicators: harm } = figures;
  const tiles: Array<[label: string, value: number, definition: string]> = [
    ['Self-excluded', players.self_excluded, 'players whose compliance state says self-excluded, now'],
    ['Cooling off', players.cooling_off, 'players in a cooling-off period, now'],
    ['With a limit', players.with_any_limit, 'players with a deposit or session limit, now'],
    ['Marketing suppressed', marketing.suppressed, `marketing steps the gate stopped in the range, of ${formatNumber(marketing.decided)} decided`],
    ['Harm indicators', harm.fired, `fired in the range, for ${formatNumber(harm.players)} players`],
  ];
  return (
    <section className="panel" aria-labelledby="safer-title">
      <h2 id="safer-title">Safer gambling</h2>
      <ul className="tiles" aria-label="Safer-gambling figures">
        {tiles.map(([label, value, definition]) => (
          <li className="tile" key={label}>
            <span className="tile-label">{label}</span>
            <span className="tile-value" data-safer={label}>
              {formatNumber(value)}
            </span>
            <span className="tile-note">{definition}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
