import { createReadStream, readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface FuzzTally {
  /** Requests Schemathesis sent and got an answer to, over every phase. */
  cases: number;
  /** Per operation label (`POST /gateway`), how many answers had each status. */
  statuses: Record<string, Record<string, number>>;
}

interface ScenarioFinished {
  recorder?: { label?: string; interactions?: Record<string, { response?: { status_code?: number } | null }> };
}

/**
 * Tallies the NDJSON event stream Schemathesis writes with `--report ndjson`: one `ScenarioFinished`
 * event per scenario, whose recorder holds every request/response pair of it.
 *
 * @example const { cases } = await tallyReport('.data/fuzz-report')
 */
export async function tallyReport(reportDir: string): Promise<FuzzTally> {
  const file = readdirSync(reportDir).find((name) => name.endsWith('.ndjson'));
  if (!file) throw new Error(`no NDJSON report in ${reportDir}`);
  const tally: FuzzTally = { cases: 0, statuses: {} };
  const lines = createInterface({ input: createReadStream(path.join(reportDir, file), 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const { recorder } = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished;
    const label = recorder?.label ?? '?';
    for (const interaction of Object.values(recorder?.interactions ?? {})) {
      const status = String(interaction.response?.status_code ?? 'no response');
      tally.cases += 1;
      const byStatus = (tally.statuses[label] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
  }
  return tally;
}
