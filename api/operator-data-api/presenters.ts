import type { WriteResult } from '../../commands/results';
import type { Keyring } from '../../core/crypto';
import { openPii } from '../../core/pii';
import type { BatchJobRow } from '../../db/queries/batchJobs';
import type { EntityRow, StateRow } from '../../db/queries/entities';
import type { OperatorSettings } from '../../db/queries/settings';
import type { TemplateRow } from '../../db/queries/templates';

/** A template as `GET /templates` lists it. */
export const templateRecord = (template: TemplateRow) => ({
  id: template.id,
  name: template.name,
  version: template.version,
  schema: template.schema,
  created_at: template.created_at.toISOString(),
});

/** The operator's settings as the API shows them (the template's schema stays internal). */
export function settingsRecord(settings: OperatorSettings) {
  return {
    template: settings.template,
    dataRetentionDays: settings.dataRetentionDays,
    retentionPolicy: settings.retentionPolicy,
    reportingCurrency: settings.reportingCurrency,
    churnDays: settings.churnDays,
  };
}

/** An entity as `GET /entities/:externalId` shows it: personal fields opened (the one read that decrypts), or `_deleted` once erased. */
export function entityRecord(keyring: Keyring, entity: EntityRow) {
  return {
    id: entity.id,
    externalId: entity.external_id,
    entityType: entity.entity_type,
    data: entity.deleted_at ? { _deleted: true } : openPii(keyring, entity.operator_id, entity.external_id, entity.data),
    created_at: entity.created_at.toISOString(),
    updated_at: entity.updated_at.toISOString(),
  };
}

/** One state value of an entity. */
export const stateRecord = (row: Pick<StateRow, 'state_key' | 'value' | 'updated_at'>) => ({
  state_key: row.state_key,
  value: row.value,
  updated_at: new Date(row.updated_at).toISOString(),
});

/** A batch job with its progress and, once done, its output. */
export function batchJobRecord(job: BatchJobRow) {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    progress: job.progress,
    output: job.output ?? { succeeded: 0, failed: 0, errors: [] },
    error: job.error,
    created_at: job.created_at.toISOString(),
    completed_at: job.completed_at ? job.completed_at.toISOString() : null,
  };
}

/** PostgreSQL's order of a jsonb object's keys: shorter first, then by their bytes. */
function inJsonbOrder(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The `data` of a single write's answer: the record, `action` naming the outcome (always for an entity, only a
 * repeat's for an event). A repeat keeps the key order it has always had, that of the answer read back from jsonb.
 */
export function writtenRecord(result: WriteResult<Record<string, unknown>>, action: 'always' | 'duplicate'): Record<string, unknown> {
  if (result.outcome === 'duplicate') return inJsonbOrder({ ...result.data, action: result.outcome });
  return action === 'always' ? { ...result.data, action: result.outcome } : result.data;
}
