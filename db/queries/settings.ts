import type { Knex } from 'knex';
import type { TemplateSchema } from '../../core/templates';
import type { Db } from '../knex';

export interface RetentionWindow {
  hot_days: number;
  archive_days: number;
}

export interface RetentionPolicy {
  entity_events?: RetentionWindow;
  entity_states?: RetentionWindow;
}

/** Churn after this many days without activity unless the operator says otherwise (Optimove's 30-day rule). */
export const DEFAULT_CHURN_DAYS = 30;

export interface OperatorSettings {
  template: { id: string; name: string; version: string } | null;
  templateSchema: TemplateSchema | null;
  dataRetentionDays: number | null;
  retentionPolicy: RetentionPolicy | null;
  reportingCurrency: string;
  /** Days without a round or a completed deposit after which a player counts as churned (`GET /cohorts`' default). */
  churnDays: number;
}

/** The operator's settings with its template, in one indexed read; defaults when never set. Read through db/settingsPort.ts. */
export async function getSettings(db: Db | Knex.Transaction, operatorId: string): Promise<OperatorSettings> {
  const row = await db('operator_settings as s')
    .leftJoin('templates as t', 't.id', 's.template_id')
    .where('s.operator_id', operatorId)
    .first('s.data_retention_days', 's.retention_policy', 's.reporting_currency', 's.churn_days', 't.id', 't.name', 't.version', 't.schema');
  if (!row)
    return { template: null, templateSchema: null, dataRetentionDays: null, retentionPolicy: null, reportingCurrency: 'EUR', churnDays: DEFAULT_CHURN_DAYS };
  return {
    template: row.id ? { id: row.id, name: row.name, version: row.version } : null,
    templateSchema: row.schema ?? null,
    dataRetentionDays: row.data_retention_days,
    retentionPolicy: row.retention_policy,
    reportingCurrency: String(row.reporting_currency).trim(),
    churnDays: Number(row.churn_days),
  };
}

export interface SettingsChange {
  templateId?: string;
  dataRetentionDays?: number | null;
  retentionPolicy?: RetentionPolicy | null;
  reportingCurrency?: string;
  churnDays?: number;
}

export async function updateSettings(db: Db, operatorId: string, change: SettingsChange): Promise<void> {
  const values: Record<string, unknown> = {};
  if (change.templateId !== undefined) values.template_id = change.templateId;
  if (change.dataRetentionDays !== undefined) values.data_retention_days = change.dataRetentionDays;
  if (change.retentionPolicy !== undefined) values.retention_policy = change.retentionPolicy === null ? null : JSON.stringify(change.retentionPolicy);
  if (change.reportingCurrency !== undefined) values.reporting_currency = change.reportingCurrency;
  if (change.churnDays !== undefined) values.churn_days = change.churnDays;
  const insert = db('operator_settings').insert({ operator_id: operatorId, ...values, updated_at: db.fn.now() });
  await (Object.keys(values).length > 0
    ? insert.onConflict('operator_id').merge({ ...values, updated_at: db.fn.now() })
    : insert.onConflict('operator_id').ignore());
}
