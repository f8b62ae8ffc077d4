import type { Db } from '../../db/knex';
import { BACKLOG_EVENTS, BACKLOG_FORGET_MS, CONTENDED_WINDOW_MS, FAR_BEHIND, InFlightRuns } from '../../worker/inFlight';

/** The in-flight cap (worker/inFlight.ts) is the whole cap alone and the contended share beside another organisation. */
describe('InFlightRuns.capOf', () => {
  let now = 0;
  // The database is only asked about runs in flight; these cases start none that `room` would look up.
  const runs = () => new InFlightRuns({} as Db, { cap: 50, contendedCap: 4, now: () => now });

  it('gives an organisation alone the whole cap, its own runs notwithstanding', async () => {
    const inFlight = runs();
    inFlight.add('a', 'run-1');
    expect(inFlight.capOf('a')).toBe(50);
    expect(await inFlight.room('b')).toBe(50);
    inFlight.notePending('b', BACKLOG_EVENTS);
    expect(await inFlight.room('b')).toBe(4);
  });

  it('gives the contended share while another organisation started a run within the window, the whole cap after', async () => {
    const inFlight = runs();
    now = 1_000;
    inFlight.add('b', 'run-b');
    expect(inFlight.capOf('a')).toBe(50);
    inFlight.notePending('a', BACKLOG_EVENTS);
    inFlight.notePending('b', BACKLOG_EVENTS);
    expect(inFlight.capOf('a')).toBe(4);
    expect(inFlight.capOf('b')).toBe(50);
    now += CONTENDED_WINDOW_MS - 1;
    expect(inFlight.capOf('a')).toBe(4);
    now += 1;
    expect(inFlight.capOf('a')).toBe(50);
  });

  it('holds only an organisation with a backlog to the contended cap: one keeping up keeps the whole cap', () => {
    const inFlight = runs();
    now = 50_000;
    inFlight.add('burst', 'run-1');
    inFlight.add('steady', 'run-2');
    inFlight.notePending('burst', 500);
    inFlight.notePending('steady', 2);
    expect(inFlight.capOf('burst')).toBe(4);
    expect(inFlight.capOf('steady')).toBe(50);
    inFlight.notePending('burst', BACKLOG_EVENTS - 1);
    expect(inFlight.capOf('burst')).toBe(50);
  });

  it('keeps the whole cap for a backlog far less behind than every other active one, and holds it beside a lighter one', () => {
    const inFlight = runs();
    now = 200_000;
    inFlight.add('burst', 'run-1');
    inFlight.add('bystander', 'run-2');
    inFlight.notePending('burst', 64, now - 60_000);
    inFlight.notePending('bystander', 30, now - 60_000 / FAR_BEHIND);
    expect([inFlight.capOf('burst'), inFlight.capOf('bystander')]).toEqual([4, 50]);
    inFlight.notePending('bystander', 30, now - 60_000 / FAR_BEHIND - 1);
    expect(inFlight.capOf('bystander')).toBe(4);
    inFlight.notePending('bystander', 30, now - 5_000);
    inFlight.add('keeping-up', 'run-3');
    expect([inFlight.capOf('burst'), inFlight.capOf('bystander')]).toEqual([4, 4]);
  });

  it('holds two organisations as far behind as each other, each to the contended cap', () => {
    const inFlight = runs();
    now = 300_000;
    inFlight.add('first', 'run-1');
    inFlight.add('second', 'run-2');
    inFlight.notePending('first', 500, now - 40_000);
    inFlight.notePending('second', 500, now - 25_000);
    expect([inFlight.capOf('first'), inFlight.capOf('second')]).toEqual([4, 4]);
  });

  it('forgets a backlog no pass has confirmed for a minute (a deleted organisation), and keeps one its passes confirm', () => {
    const inFlight = runs();
    now = 100_000;
    inFlight.notePending('gone', 500);
    inFlight.notePending('busy', 500);
    now += BACKLOG_FORGET_MS - 1;
    inFlight.notePending('busy', 500);
    inFlight.add('other', 'run-1');
    expect([inFlight.capOf('gone'), inFlight.capOf('busy')]).toEqual([4, 4]);
    now += 1;
    inFlight.add('other', 'run-2');
    expect([inFlight.capOf('gone'), inFlight.capOf('busy')]).toEqual([50, 4]);
    expect(inFlight.notePending('gone', 500)).toBe(true);
    expect(inFlight.notePending('busy', 500)).toBe(false);
  });

  it('counts an organisation heavy while it has a backlog, or a quarter of its cap in flight', () => {
    const inFlight = runs();
    expect(inFlight.light('busy', 1)).toBe(true);
    expect(inFlight.light('busy', Math.ceil(50 / 4))).toBe(false);
    inFlight.notePending('busy', 2_000);
    expect(inFlight.light('busy', 1)).toBe(false);
    inFlight.notePending('busy', 2);
    expect(inFlight.light('busy', 1)).toBe(true);
  });

  it('never gives a contended share above the cap', () => {
    expect(new InFlightRuns({} as Db, { cap: 2, contendedCap: 4 }).contendedCap).toBe(2);
  });
});

/** Whether another organisation is live: what the contended cap and the batch intake's pace follow. */
describe('InFlightRuns.othersActive', () => {
  let now = 0;
  const runs = () => new InFlightRuns({} as Db, { cap: 50, contendedCap: 4, now: () => now });

  it('is true while another organisation has started or woken a run within the window, never for its own', () => {
    const inFlight = runs();
    now = 10_000;
    expect(inFlight.othersActive('a')).toBe(false);
    inFlight.add('a', 'run-a');
    expect(inFlight.othersActive('a')).toBe(false);
    inFlight.add('b', 'run-b', true);
    expect(inFlight.othersActive('a')).toBe(true);
    expect(inFlight.othersActive('b')).toBe(true);
    now += CONTENDED_WINDOW_MS - 1;
    expect(inFlight.othersActive('a')).toBe(true);
    now += 1;
    expect(inFlight.othersActive('a')).toBe(false);
    expect(inFlight.othersActive('c')).toBe(false);
  });
});
