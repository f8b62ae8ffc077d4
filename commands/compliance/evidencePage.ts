import { complianceSettingsOf } from '../../core/compliance/settings';
import {
  findComplianceSettings,
  listPlayerHarmIndicators,
  pageEvidence,
  type EvidenceAfter,
  type EvidenceFilter,
  type EvidencePageRow,
  type HarmIndicatorRow,
} from '../../db/queries/compliance';
import type { CommandDeps } from '../deps';

/** A page of the evidence viewer holds at most this many rows (`limit`, default 50). */
export const MAX_EVIDENCE_PAGE = 100;
/** The player panel shows this many of a player's newest harm indicators. */
export const PLAYER_HARM_INDICATORS = 20;

export interface EvidencePage {
  rows: EvidencePageRow[];
  /** Where the next page starts; null on the last page. */
  next: EvidenceAfter | null;
}

/** One page of the gate's evidence, newest first, under the viewer's filters (docs/compliance.md "Viewing the evidence"). */
export async function evidencePage(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; filter: EvidenceFilter; limit: number; after?: EvidenceAfter },
): Promise<EvidencePage> {
  const rows = await pageEvidence(deps.db, input.operatorId, input.filter, input.limit + 1, input.after);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > input.limit && last ? { recordedAt: last.recorded_key, seq: String(last.seq) } : null };
}

export interface PlayerHarm {
  indicators: HarmIndicatorRow[];
  /** Until when the gate counts the player at risk (the newest indicator plus `harm.atRiskDays`); null when it does not. */
  atRiskUntil: Date | null;
}

/** A player's newest harm indicators and whether the gate counts them at risk now, by the operator's `atRiskDays`. */
export async function playerHarm(deps: Pick<CommandDeps, 'db'>, operatorId: string, externalId: string): Promise<PlayerHarm> {
  const [indicators, stored] = await Promise.all([
    listPlayerHarmIndicators(deps.db, operatorId, externalId, PLAYER_HARM_INDICATORS),
    findComplianceSettings(deps.db, operatorId),
  ]);
  const newest = indicators[0];
  const until = newest ? new Date(newest.fired_at.getTime() + complianceSettingsOf(stored).harm.atRiskDays * 86_400_000) : null;
  return { indicators, atRiskUntil: until && until.getTime() > Date.now() ? until : null };
}
