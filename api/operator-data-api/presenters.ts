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
  };
}
