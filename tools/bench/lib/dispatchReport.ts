import { fmt, say } from './stats';

/**
 * One row of a `bench:dispatch` table: a figure beside its floor measured in the same run, their ratio and the goal
 * the ratio must meet (`atLeast` for rates, `atMost` for latencies). A miss is reported, never thrown: the bench
 * measures, it does not gate.
 */
export interface GoalRow {
  name: string;
  figure: number;
  floor: number;
  unit: string;
  goal: { atLeast: number } | { atMost: number };
  /** What the row cannot say by its numbers (lost runs, refused events, too few samples). */
  note?: string;
}

const met = (row: GoalRow, ratio: number) => Number.isFinite(ratio) && ('atLeast' in row.goal ? ratio >= row.goal.atLeast : ratio <= row.goal.atMost);
const goalText = (row: GoalRow) => ('atLeast' in row.goal ? `≥ ${row.goal.atLeast}×` : `≤ ${row.goal.atMost}×`);

/** Prints a section's table: figure, floor, ratio, goal and PASS/MISS per row, then each row's note. */
export function printGoals(title: string, rows: GoalRow[]): void {
  say('');
  say(`── ${title} ──`);
  const width = Math.max(4, ...rows.map((row) => row.name.length));
  say(`${'case'.padEnd(width)} ${'figure'.padStart(12)} ${'floor'.padStart(12)} ${'ratio'.padStart(7)} ${'goal'.padStart(8)}  verdict`);
  for (const row of rows) {
    const ratio = row.figure / row.floor;
    say(
      `${row.name.padEnd(width)} ${`${fmt(row.figure)} ${row.unit}`.padStart(12)} ${`${fmt(row.floor)} ${row.unit}`.padStart(12)} ${fmt(ratio, 2).padStart(7)} ${goalText(row).padStart(8)}  ${met(row, ratio) ? 'PASS' : 'MISS'}`,
    );
    if (row.note) say(`    ${row.note}`);
  }
}

/** Prints lines of detail under a section (a ladder's rungs, what a poison event met), indented. */
export const detail = (line: string) => say(`    ${line}`);
