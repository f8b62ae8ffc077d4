import { exportEvidence } from '../../commands/compliance/evidence';
import { evidencePage, playerHarm } from '../../commands/compliance/evidencePage';
import type { EvidenceFilter } from '../../db/queries/compliance';
import { getComplianceSettings, updateComplianceSettings } from '../../commands/compliance/settings';
import type { EvidenceRow } from '../../db/queries/compliance';
import { actorOf } from '../actor';
import { encodeKeysetCursor } from '../keysetCursor';
import { EVIDENCE_COLUMNS, ComplianceSettingsBody, EvidencePageQuery, EvidenceQuery, PlayerComplianceParams } from './complianceSchema';
import { automations } from './area';

/** `GET /compliance/settings`: the operator's responsible-gambling settings, defaults included. */
export const getComplianceSettingsHandler = automations.handler({}, async ({ deps, ctx, principal }) => {
  ctx.body = { success: true, data: await getComplianceSettings(deps, principal.operatorId) };
});

/** `PUT /compliance/settings`: replaces them; switching the exclusion rule off is 403 for everyone. */
export const putComplianceSettingsHandler = automations.handler(
  { input: { body: ComplianceSettingsBody } },
  async ({ deps, ctx, input: { body }, principal }) => {
    ctx.body = { success: true, data: await updateComplianceSettings(deps, { operatorId: principal.operatorId, settings: body, actor: actorOf(principal) }) };
  },
);

const toEvidenceRecord = (row: EvidenceRow) => ({
  recorded_at: row.recorded_at.toISOString(),
  workflow_id: row.automation_id,
  workflow_version: row.automation_version,
  run_id: row.run_id,
  node_id: row.node_id,
  action_type: row.action_type,
  purpose: row.purpose,
  rule: row.rule,
  player_id: row.player_id,
  state_hash: row.state_hash,
});

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * `GET /compliance/evidence?from&to&format`: the gate's evidence of a period as JSON or CSV (the same fields, the
 * same order); `X-Truncated` says whether the period held more rows than one export carries.
 */
export const evidenceExportHandler = automations.handler({ input: { query: EvidenceQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const from = new Date(query.from);
  const to = new Date(query.to);
  const { rows, truncated } = await exportEvidence(deps, { operatorId: principal.operatorId, from, to, actor: actorOf(principal), format: query.format });
  const records = rows.map(toEvidenceRecord);
  ctx.set('X-Truncated', String(truncated));
  if (query.format === 'csv') {
    ctx.set('Content-Disposition', `attachment; filename="marketing-evidence-${from.toISOString().slice(0, 10)}-${to.toISOString().slice(0, 10)}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = [EVIDENCE_COLUMNS.join(','), ...records.map((record) => EVIDENCE_COLUMNS.map((column) => csvCell(record[column])).join(','))].join('\n') + '\n';
    return;
  }
  ctx.body = { success: true, data: records, count: records.length, truncated };
});

/** `GET /compliance/evidence/records`: one page of the evidence viewer, newest first, filtered by player, rule, workflow and period. */
export const evidencePageHandler = automations.handler({ input: { query: EvidencePageQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const { limit, cursor, workflowId, ...rest } = query;
  // The spec's `workflowId` names the automation.
  const filter: EvidenceFilter = { ...rest, ...(workflowId === undefined ? {} : { automationId: workflowId }) };
  const page = await evidencePage(deps, { operatorId: principal.operatorId, filter, limit, after: cursor });
  ctx.body = {
    success: true,
    data: { records: page.rows.map(toEvidenceRecord), nextCursor: page.next ? encodeKeysetCursor(page.next.recordedAt, page.next.seq) : null },
  };
});

/** `GET /compliance/players/:externalId/harm`: the player's newest harm indicators and until when the gate counts them at risk. */
export const playerHarmHandler = automations.handler({ input: { params: PlayerComplianceParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const harm = await playerHarm(deps, principal.operatorId, params.externalId);
  ctx.body = {
    success: true,
    data: {
      playerId: params.externalId,
      atRiskUntil: harm.atRiskUntil?.toISOString() ?? null,
      indicators: harm.indicators.map((row) => ({ indicator: row.indicator, firedAt: row.fired_at.toISOString(), details: row.details })),
    },
  };
});
