import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import { evidenceExportHandler, evidencePageHandler, getComplianceSettingsHandler, playerHarmHandler, putComplianceSettingsHandler } from './compliance';
import * as complianceExamples from './complianceExamples';
import { ComplianceSettingsRecord, EvidenceExportBody, EvidencePageBody, PlayerHarmBody } from './complianceSchema';
import * as examples from './examples';
import { z } from 'zod';

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };
const invalid = jsonContent(CodedError, 'VALIDATION_FAILED (MISSING_FIELDS for an absent one): `details` names the field');
const managers = jsonContent(CodedError, 'FORBIDDEN: needs an API key or the Owner or an Admin');

/**
 * Declares the responsible-gambling gate's settings and evidence on the automations area (docs/compliance.md
 * "Responsible-gambling gate"): anyone of the operator reads the settings; changing them and exporting the
 * evidence need the `manager` guard (an API key, the Owner or an Admin).
 */
export function declareCompliance(area: Pick<Area<AppDeps, 'manager', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'get',
    path: '/compliance/settings',
    summary: "The operator's responsible-gambling settings (defaults where never saved)",
    responses: { 200: ok(ComplianceSettingsRecord, 'The settings', examples.complianceSettings), ...auth },
    ...getComplianceSettingsHandler,
  });
  area.endpoint({
    method: 'put',
    path: '/compliance/settings',
    summary: 'Replace the responsible-gambling settings: optional rules, quiet hours per jurisdiction, harm thresholds',
    description:
      'Fields left out take their defaults. The exclusion rule (self-exclusion, cooling-off, excluded players) cannot be switched off: `rules.exclusion: false` is 403 FORBIDDEN for every role and every key, and nothing changes.',
    guards: ['manager'],
    request: { body: { description: 'The settings', example: examples.complianceSettingsBody } },
    responses: {
      200: ok(ComplianceSettingsRecord, 'The settings as stored', examples.complianceSettings),
      400: invalid,
      ...auth,
      403: jsonContent(CodedError, 'FORBIDDEN: a Member, or any caller sending `rules.exclusion: false`'),
    },
    ...putComplianceSettingsHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/compliance/evidence',
    summary: "The gate's evidence of a period, as JSON or CSV",
    description:
      'Every marketing step the gate decided in `[from, to)`, oldest first: performed (`rule` `allowed`) or suppressed (the rule). At most 93 days and 10,000 rows per export; `truncated` (and the `X-Truncated` header) says whether the period held more.',
    guards: ['manager'],
    responses: {
      200: {
        description: 'The evidence',
        headers: z.object({ 'X-Truncated': z.enum(['true', 'false']) }),
        content: { 'application/json': { schema: EvidenceExportBody, example: examples.evidenceExport }, 'text/csv': { schema: z.string() } },
      },
      400: invalid,
      ...auth,
      403: managers,
    },
    ...evidenceExportHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/compliance/evidence/records',
    summary: "A page of the gate's evidence, newest first, filtered by player, rule, workflow and period",
    description:
      'The evidence viewer: the same records as the export, newest first, keyset-paged (`nextCursor`, stable while the gate keeps recording). Filters combine; a bad one is 400 VALIDATION_FAILED naming it.',
    guards: ['manager'],
    responses: {
      200: jsonContent(EvidencePageBody, 'A page of evidence', complianceExamples.evidencePage),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names the filter (`rule`, `limit`, `cursor`, `to`, or unknown parameters)'),
      ...auth,
      403: managers,
    },
    ...evidencePageHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/compliance/players/:externalId/harm',
    summary: "A player's newest harm indicators and until when the gate counts them at risk",
    responses: {
      200: jsonContent(PlayerHarmBody, 'The indicators (none for an unknown player)', complianceExamples.playerHarm),
      400: invalid,
      ...auth,
    },
    ...playerHarmHandler,
  });
}
