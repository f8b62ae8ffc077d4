import type { TemplateSchema } from '../core/templates';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

/**
 * The operator's template, which every data write is validated against: refused `TEMPLATE_NOT_CONFIGURED` (spec
 * 7.2) until one is selected with `PUT /settings`. Read through the caller's settings port (cached in the API,
 * stored for jobs, the transaction's own for a write inside one).
 */
export async function requireTemplate(deps: Pick<CommandDeps, 'settings'>, operatorId: string): Promise<TemplateSchema> {
  const { templateSchema } = await deps.settings.of(operatorId);
  if (!templateSchema) throw new CommandError('TEMPLATE_NOT_CONFIGURED', 'No template configured; set it with PUT /settings');
  return templateSchema;
}
