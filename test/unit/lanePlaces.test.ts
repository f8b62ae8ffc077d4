import type { Db } from '../../db/knex';
import { InFlightRuns } from '../../worker/inFlight';
import { lanePlaces } from '../../worker/lanePlaces';
import { StartAdmission } from '../../worker/startAdmission';

/** Places on one clock the test moves: the platform's rate 20 starts/s, each operator's own budget out of the way. */
function places() {
  let now = 0;
  const starts = new StartAdmission(100_000, 100_000, { maxRate: 20, initialRate: 20, now: () => now });
  const inFlight = new InFlightRuns({} as Db, { cap: 40, now: () => now });
  return { starts, inFlight, places: lanePlaces(starts, inFlight), advance: (ms: number) => (now += ms) };
}

describe('lanePlaces', () => {
  it('places every run at once while its organisation is alone, and counts each in flight', () => {
    const { places: lane, inFlight } = places();
    const at = Array.from({ length: 30 }, (_, i) => lane.place('burst', `run-${i}`));
    expect(at).toEqual(Array(30).fill(0));
    expect(inFlight.held('burst')).toBe(30);
  });

  it('spaces the runs over the share beside another organisation once it is no longer light, counted from their places', () => {
    const { places: lane, starts, inFlight, advance } = places();
    expect(starts.take('bystander', 1)).toBe(true);
    // Light (under a quarter of the cap in flight, these included): its first nine go at once, from its own budget.
    // The tenth takes the first paced place, now; each later one comes a gap after the last (20/s: 50 ms apart).
    const at = Array.from({ length: 30 }, (_, i) => lane.place('burst', `run-${i}`));
    expect(at.slice(0, 10)).toEqual(Array(10).fill(0));
    const spaced = at.slice(9);
    for (let i = 1; i < spaced.length; i++) expect(spaced[i]! - spaced[i - 1]!).toBeGreaterThanOrEqual(50);
    expect(spaced.at(-1)!).toBeLessThanOrEqual(20 * 1000);
    expect(inFlight.held('burst')).toBe(30);
    // The bystander keeps its own way: light, its start is taken whole.
    advance(10);
    expect(starts.take('bystander', 1, inFlight.light('bystander', 1))).toBe(true);
    expect(inFlight.light('burst')).toBe(false);
  });
});
