import { may } from './checks';
import { inputSchema } from './triggerChecks';
import type { NodeModule } from './module';

/** `trigger.manual`: a test run from the dashboard or an MCP tool call; `inputSchema` is also the tool's input schema. */
export const triggerManual: NodeModule = {
  label: 'Manual or MCP',
  group: 'trigger',
  description: 'Runs when you test it here, or when an AI assistant calls it over MCP.',
  defaults: {},
  params: { inputSchema: may(inputSchema) },
  branches: 'none',
};
