import { listEvidence, type EvidenceRow } from '../../db/queries/compliance';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

/** An export covers at most this long a period and this many rows: it is read in one query and held in memory. */
export const MAX_EVIDENCE_DAYS = 93;
export const MAX_EVIDENCE_ROWS = 10_000;

export interface EvidenceExport {
  rows: EvidenceRow[];
  /** More rows than `MAX_EVIDENCE_ROWS` were recorded in the period: export a shorter one. */
  truncated: boolean;
}

/** The gate's evidence recorded in `[from, to)` (docs/compliance.md "Evidence"), oldest first. */
export async function exportEvidence(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; from: Date; to: Date }): Promise<EvidenceExport> {
  if (input.to.getTime() <= input.from.getTime())
    throw new CommandError(400, 'VALIDATION_FAILED', 'Invalid input: to: must be after from', [{ field: 'to', message: 'must be after from' }]);
  if (input.to.getTime() - input.from.getTime() > MAX_EVIDENCE_DAYS * 86_400_000)
    throw new CommandError(400, 'VALIDATION_FAILED', `Invalid input: to: the period may span at most ${MAX_EVIDENCE_DAYS} days`, [
      { field: 'to', message: `the period may span at most ${MAX_EVIDENCE_DAYS} days` },
    ]);
  const rows = await listEvidence(deps.db, input.operatorId, input.from, input.to, MAX_EVIDENCE_ROWS + 1);
  return { rows: rows.slice(0, MAX_EVIDENCE_ROWS), truncated: rows.length > MAX_EVIDENCE_ROWS };
}
