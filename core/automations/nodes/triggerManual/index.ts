import { may } from '../checks';
import { inputSchema } from '../triggerChecks';
import type { NodeModule } from '../module';
import { flow } from './flow';

/** `trigger.manual`: a test run from the dashboard or an MCP tool call; `inputSchema` is also the tool's input schema. */
export const triggerManual: NodeModule = {
  ...flow,
  label: 'Manual or MCP',
  description: 'Runs when you test it here, or when an AI assistant calls it over MCP.',
  defaults: {},
  fields: [{ kind: 'schema', name: 'inputSchema', label: 'Inputs' }],
  branchLabels: null,
  params: { inputSchema: may(inputSchema) },
};
