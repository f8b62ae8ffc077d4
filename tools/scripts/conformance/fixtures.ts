/**
 * The operator automations behind the tools the conformance scenarios call by name (the suite's
 * `src/scenarios/server/**`). A tool is an automation exposed to MCP, named by the slug of its display name
 * (core/automations/slug.ts), so each display name below slugs to exactly the scenario's tool name. Only what an
 * automation can express is here: a tool's result is its run's output as JSON text, so fixtures that must return
 * images, audio, embedded resources, fixed prose or log messages, ask for a completion (sampling), or ask for
 * input other than one approval at a time have no automation (docs/mcp.md#conformance lists each with its reason).
 */

/**
 * How long the conformance stack holds a synchronous `tools/call` (`MCP_CALL_WAIT_MS`, 55 s in production). A tool
 * whose delays add up to this or more runs as a task; the suite waits at most 10 s for a task to end, so the stack
 * holds calls for 3 s rather than 55 s, and a 3 s delay makes a tool task-required.
 */
export const CALL_WAIT_MS = 3_000;
const TASK_DELAY_SECONDS = CALL_WAIT_MS / 1000;

/**
 * An address the platform refuses to call (loopback, with `GATEWAY_ALLOW_PRIVATE_NETWORKS` off): the HTTP action fails
 * at once with the node error `DESTINATION_NOT_ALLOWED`, before any connection, so the run ends as a tool error. Its
 * host is built by a template: a literal private address is refused when the workflow is saved.
 */
const REFUSED_URL = "http://{{ '127.0.0.1' }}:9/conformance-tool-error";

interface Node {
  id: string;
  type: string;
  params: Record<string, unknown>;
}

export interface Fixture {
  /** The tool name the scenarios call. */
  tool: string;
  /** The automation's display name, whose slug is `tool`. */
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
  /** The actions after the manual trigger, in a chain. */
  actions: Node[];
}

const noArguments = { type: 'object' as const, properties: {}, required: [] };
const delay = (id: string, seconds: number): Node => ({ id, type: 'action.delay', params: { seconds } });
const refusedCall: Node = { id: 'fail', type: 'action.http_request', params: { method: 'GET', url: REFUSED_URL } };

export const FIXTURES: Fixture[] = [
  {
    // Listed first (tools/list is ordered by name): the header-validation scenario calls the first tool without the
    // tasks extension, so that one must answer synchronously.
    tool: 'answer_now',
    name: 'Answer now',
    description: 'Conformance: answers at once; its result is its arguments as JSON text.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: [] },
    actions: [],
  },
  {
    tool: 'test_simple_text',
    name: 'Test simple text',
    description: 'Conformance: answers at once with text content (its run output, the empty arguments).',
    inputSchema: noArguments,
    actions: [],
  },
  {
    tool: 'test_error_handling',
    name: 'Test error handling',
    description: 'Conformance: always fails with a tool error (isError: true): it calls an address the platform refuses.',
    inputSchema: noArguments,
    actions: [refusedCall],
  },
  {
    tool: 'test_tool_with_progress',
    name: 'Test tool with progress',
    description: 'Conformance: two one-second waits, reporting notifications/progress as each node runs and finishes.',
    inputSchema: noArguments,
    actions: [delay('first', 1), delay('second', 1)],
  },
  {
    tool: 'greet',
    name: 'Greet',
    description: 'Conformance (tasks): a synchronous tool; its result is its arguments as JSON text.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    actions: [],
  },
  {
    tool: 'slow_compute',
    name: 'Slow compute',
    description: `Conformance (tasks): task-required; waits ${TASK_DELAY_SECONDS} s (whatever seconds asks for), then completes. Cancelling it stops the wait.`,
    inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } }, required: [] },
    actions: [delay('compute', TASK_DELAY_SECONDS)],
  },
  {
    tool: 'failing_job',
    name: 'Failing job',
    description: `Conformance (tasks): task-required; waits ${TASK_DELAY_SECONDS} s, then fails with a tool error.`,
    inputSchema: noArguments,
    actions: [delay('wait', TASK_DELAY_SECONDS), refusedCall],
  },
  {
    tool: 'confirm_delete',
    name: 'Confirm delete',
    description:
      'Conformance (tasks): task-required; waits in an approval (the task reads input_required, its inputRequests an elicitation form), then completes with the answer.',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: [] },
    actions: [{ id: 'confirm', type: 'action.approval', params: { message: 'Delete {{ trigger.filename }}?', timeoutSeconds: 60 } }],
  },
];

/** The management API's body for a fixture: a manual trigger with its input schema, then the actions in a chain. */
export function automationOf(fixture: Fixture): Record<string, unknown> {
  const nodes: Node[] = [{ id: 'start', type: 'trigger.manual', params: { inputSchema: fixture.inputSchema } }, ...fixture.actions];
  return {
    name: fixture.name,
    description: fixture.description,
    active: true,
    mcp_exposed: true,
    nodes,
    edges: nodes.slice(1).map((node, index) => ({ from: nodes[index]!.id, to: node.id })),
  };
}
