import { validateAutomationBody, type AutomationBody } from '../../core/automations/definition';
import { privateUrlProblems } from '../../core/automations/nodes/httpRequest/privateUrl';
import { regexProblems } from '../../sandbox/redos';
import { CommandError } from '../errors';

/**
 * A definition as every caller sends it (API body, CLI file, MCP arguments), validated with every problem at once,
 * then its regexes checked for catastrophic backtracking (sandbox/redos.ts) so a tenant cannot save one that would
 * stall the expression sandbox: `VALIDATION_FAILED` whose `details` names each field. With `refusePrivateUrls`
 * (the API's saves while `GATEWAY_ALLOW_PRIVATE_NETWORKS` is off), an HTTP step whose literal URL the run-time
 * SSRF guard would refuse is refused here too (core/automations/nodes/httpRequest/privateUrl.ts).
 */
export async function validAutomationBody(raw: unknown, options: { refusePrivateUrls?: boolean } = {}): Promise<AutomationBody> {
  const result = validateAutomationBody(raw);
  const details = result.ok
    ? [...(options.refusePrivateUrls ? privateUrlProblems(result.value.nodes) : []), ...(await regexProblems(result.value.nodes))]
    : result.details;
  if (!result.ok || details.length > 0) {
    const summary = details.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new CommandError('VALIDATION_FAILED', `Invalid workflow: ${summary}`, details);
  }
  return result.value;
}
