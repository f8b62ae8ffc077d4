import { validateAutomationBody, type AutomationBody } from '../../core/automations/definition';
import { regexProblems } from '../../sandbox/redos';
import { CommandError } from '../errors';

/**
 * A definition as every caller sends it (API body, CLI file, MCP arguments), validated with every problem at once,
 * then its regexes checked for catastrophic backtracking (sandbox/redos.ts) so a tenant cannot save one that would
 * stall the expression sandbox: 400 `VALIDATION_FAILED` whose `details` names each field.
 */
export async function validAutomationBody(raw: unknown): Promise<AutomationBody> {
  const result = validateAutomationBody(raw);
  const details = result.ok ? await regexProblems(result.value.nodes) : result.details;
  if (!result.ok || details.length > 0) {
    const summary = details.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new CommandError(400, 'VALIDATION_FAILED', `Invalid workflow: ${summary}`, details);
  }
  return result.value;
}
