import type { Actor } from '../../core/audit';
import { listEvidence, type EvidenceRow } from '../../db/queries/compliance';
import type { CommandDeps } from '../deps';
import { recordAuditAct } from '../audit';
import { CommandError } from '../errors';

/** An export covers at most this long a period and this many rows: it is read in one query and held in memory. */
export const MAX_EVIDENCE_DAYS = 93;
export const MAX_EVIDENCE_ROWS = 10_000;

export interface EvidenceExport {
  rows: EvidenceRow[];
  /** More rows than `MAX_EVIDENCE_ROWS` were recorded in the period: export a shorter one. */
  truncated: boolean;
}

/**
 * The gate's evidence recorded in `[from, to)` (docs/compliance.md "Evidence"), oldest first. The export is on the audit
 * trail (`evidence.exported`, target the organisation, with the period and the count), since it hands out a record of
 * players.
 */
export async function exportEvidence(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; from: Date; to: Date; actor: Actor; format: 'json' | 'csv' },
): Promise<EvidenceExport> {
  if (input.to.getTime() <= input.from.getTime())
    throw new CommandError('VALIDATION_FAILED', 'Invalid input: to: must be after from', [{ field: 'to', message: 'must be after from' }]);
  if (input.to.getTime() - input.from.getTime() > MAX_EVIDENCE_DAYS * 86_400_000)
    throw new CommandError('VALIDATION_FAILED', `Invalid input: to: the period may span at most ${MAX_EVIDENCE_DAYS} days`, [
      { field: 'to', message: `the period may span at most ${MAX_EVIDENCE_DAYS} days` },
    ]);
  const rows = await listEvidence(deps.db, input.operatorId, input.from, input.to, MAX_EVIDENCE_ROWS + 1);
  const exported: EvidenceExport = { rows: rows.slice(0, MAX_EVIDENCE_ROWS), truncated: rows.length > MAX_EVIDENCE_ROWS };
  const period = `${input.from.toISOString()} to ${input.to.toISOString()}`;
  const count = exported.rows.length;
  await recordAuditAct(deps.db, {
    operatorId: input.operatorId,
    actor: input.actor,
    action: 'evidence.exported',
    target: { type: 'evidence', id: input.operatorId },
    record: { from: input.from.toISOString(), to: input.to.toISOString(), format: input.format, count, truncated: exported.truncated },
    summary: `Exported ${count} evidence record${count === 1 ? '' : 's'} (${input.format}), ${period}${exported.truncated ? ', truncated' : ''}`,
  });
  return exported;
}
