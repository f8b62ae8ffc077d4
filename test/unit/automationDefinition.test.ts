import { validateAutomationBody } from '../../core/automations/definition';

const example = {
  name: 'Big deposit alert',
  description: 'Flags large deposits',
  active: true,
  mcp_exposed: true,
  nodes: [
    { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
    { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 } },
  ],
  edges: [
    { from: 'start', to: 'big' },
    { from: 'big', to: 'flag', when: true },
  ],
};

type Body = { nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> } & Record<string, unknown>;
const copy = (): Body => JSON.parse(JSON.stringify(example)) as Body;
const manual = { id: 'm', type: 'trigger.manual', params: {} };

/** The problems of a single node reached from a manual trigger. */
function problemsOf(node: Record<string, unknown>): Array<{ field: string; message: string }> {
  const result = validateAutomationBody({ name: 'n', nodes: [manual, { id: 'x', ...node }], edges: [{ from: 'm', to: 'x' }] });
  return result.ok ? [] : result.details;
}
const fieldsOf = (node: Record<string, unknown>): string[] => problemsOf(node).map((problem) => problem.field);

describe('validateAutomationBody', () => {
  it('accepts the DESIGN.md example and fills defaults', () => {
    expect(validateAutomationBody(example)).toEqual({ ok: true, value: example });
    const result = validateAutomationBody({ name: '  Minimal  ', nodes: [{ id: 't', type: 'trigger.manual' }] });
    expect(result).toEqual({
      ok: true,
      value: { name: 'Minimal', description: '', active: true, mcp_exposed: false, nodes: [{ id: 't', type: 'trigger.manual', params: {} }], edges: [] },
    });
  });

  it('accepts every node type with its params and ignores read-only record fields', () => {
    const body = {
      id: 'wf_1',
      version: 3,
      mcp_tool_name: 'all',
      created_at: 'x',
      updated_at: 'y',
      name: 'All',
      nodes: [
        { id: 'm', type: 'trigger.manual', params: { inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] } } },
        { id: 'e', type: 'trigger.event', params: { event: 'provider.webhook.acme-pay', filter: 'data.amount > 5' } },
        { id: 'w', type: 'trigger.webhook', params: { secret: null, name: 'acme', webhookId: 'wh_1', hasSecret: false, inputSchema: { type: 'object' } } },
        { id: 's', type: 'trigger.schedule', params: { cron: '0 9 * * mon-fri', timezone: 'Europe/Malta' } },
        { id: 'c', type: 'condition', params: { expression: '$exists(trigger.amount)' } },
        {
          id: 'h',
          type: 'action.http_request',
          params: { method: 'POST', url: 'https://example.com/{{ trigger.id }}', headers: { 'X-Key': '{{ run.id }}' }, body: { a: ['{{ 1 + 1 }}'] } },
        },
        { id: 'g', type: 'action.gateway', params: { connectionId: 'con_1', operation: 'getPlayer', params: { id: '{{ trigger.id }}' } } },
        { id: 'v', type: 'action.set_state', params: { externalId: 'p1', key: 'kyc_status', value: null } },
        { id: 'r', type: 'action.record_event', params: { externalId: 'p1', eventType: 'bonus', data: '{{ trigger }}' } },
        { id: 'u', type: 'action.upsert_entity', params: { entityType: 'player', externalId: 'p1', data: { country: 'MT' } } },
        { id: 'd', type: 'action.delay', params: { seconds: 2592000 } },
        { id: 'mail', type: 'action.send_email', params: { to: 'ops@example.com', subject: 'Hi', text: 'Amount {{ trigger.amount }}' } },
        { id: 'ai', type: 'action.ai', params: { prompt: 'Summarise {{ $string(trigger) }}', model: 'gpt-4o-mini' } },
      ],
      edges: [
        { from: 'm', to: 'c' },
        { from: 'e', to: 'c' },
        { from: 'w', to: 'c' },
        { from: 's', to: 'c' },
        { from: 'c', to: 'h', when: true },
        { from: 'c', to: 'g', when: false },
        { from: 'h', to: 'v' },
        { from: 'v', to: 'r' },
        { from: 'r', to: 'u' },
        { from: 'u', to: 'd' },
        { from: 'd', to: 'mail' },
        { from: 'mail', to: 'ai' },
      ],
    };
    const result = validateAutomationBody(body);
    expect(result.ok ? [] : result.details).toEqual([]);
    expect(result.ok && result.value.nodes.length).toBe(13);
    expect(result.ok && Object.keys(result.value)).toEqual(['name', 'description', 'active', 'mcp_exposed', 'nodes', 'edges']);
  });

  it('refuses a body that is not an object', () => {
    expect(validateAutomationBody([])).toEqual({ ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] });
    expect(validateAutomationBody(null)).toEqual({ ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] });
  });

  it('reports top-level field problems together', () => {
    const result = validateAutomationBody({ name: '   ', description: 5, active: 'yes', mcp_exposed: 1, nodes: {}, edges: 'x', extra: 1 });
    expect(result).toEqual({
      ok: false,
      details: [
        { field: 'extra', message: 'unknown field' },
        { field: 'name', message: 'must be 1 to 200 characters' },
        { field: 'description', message: 'must be a string' },
        { field: 'active', message: 'must be true or false' },
        { field: 'mcp_exposed', message: 'must be true or false' },
        { field: 'nodes', message: 'must be an array' },
        { field: 'edges', message: 'must be an array' },
        { field: 'nodes', message: 'needs at least one trigger node' },
      ],
    });
    expect(validateAutomationBody({ name: 'x'.repeat(201), nodes: [manual] })).toEqual({
      ok: false,
      details: [{ field: 'name', message: 'must be 1 to 200 characters' }],
    });
  });

  it('reports several problems at their exact paths at once', () => {
    const body = copy();
    body.nodes[1] = { id: 'big', type: 'condition', params: { expression: 'amount >' } };
    body.nodes[2] = { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger. }}', key: 'risk_score', foo: 1 } };
    body.edges[1] = { from: 'big', to: 'flag' };
    const result = validateAutomationBody(body);
    expect(result).toEqual({
      ok: false,
      details: [
        { field: 'nodes[1].params.expression', message: 'invalid expression: Unexpected end of expression' },
        { field: 'nodes[2].params.foo', message: 'unknown parameter' },
        { field: 'nodes[2].params.externalId', message: expect.stringMatching(/^invalid expression: /) },
        { field: 'nodes[2].params.value', message: 'is required' },
        { field: 'edges[1].when', message: 'must be true or false on an edge leaving a condition' },
      ],
    });
  });

  it('checks node ids, types and params objects', () => {
    const result = validateAutomationBody({
      name: 'n',
      nodes: [
        manual,
        { id: 'bad id', type: 'action.delay', params: { seconds: 1 } },
        { id: 'm', type: 'trigger.manual' },
        { id: 'q', type: 'action.nope' },
        { id: 'p', type: 'action.delay', params: [] },
        7,
        { id: 'z', type: 'trigger.manual', position: 1 },
      ],
    });
    expect(result.ok ? [] : result.details).toEqual([
      { field: 'nodes[1].id', message: 'must be 1 to 64 of A-Z, a-z, 0-9, _ and -' },
      { field: 'nodes[2].id', message: 'duplicate node id "m"' },
      { field: 'nodes[3].type', message: expect.stringMatching(/^must be one of trigger.manual, /) },
      { field: 'nodes[4].params', message: 'must be an object' },
      { field: 'nodes[5]', message: 'must be an object' },
      { field: 'nodes[6].position', message: 'unknown field' },
    ]);
  });

  it('limits nodes and edges', () => {
    const nodes = Array.from({ length: 101 }, (_, index) => ({ id: `t${index}`, type: 'trigger.manual' }));
    const tooMany = validateAutomationBody({ name: 'n', nodes });
    expect(tooMany.ok ? [] : tooMany.details).toEqual([{ field: 'nodes', message: 'must have at most 100 nodes' }]);
    const edges = Array.from({ length: 201 }, () => ({ from: 'a', to: 'b' }));
    const result = validateAutomationBody({ name: 'n', nodes: [manual], edges });
    expect(result.ok ? [] : result.details[0]).toEqual({ field: 'edges', message: 'must have at most 200 edges' });
  });

  it('requires a trigger', () => {
    const result = validateAutomationBody({ name: 'n', nodes: [{ id: 'd', type: 'action.delay', params: { seconds: 5 } }] });
    expect(result).toEqual({ ok: false, details: [{ field: 'nodes', message: 'needs at least one trigger node' }] });
  });

  it('checks edges: unknown nodes, self edges, duplicates, edges into triggers and stray when', () => {
    const body = copy();
    body.nodes.push({ id: 'other', type: 'trigger.manual' });
    body.edges.push(
      { from: 'start', to: 'ghost' },
      { from: 'flag', to: 'flag' },
      { from: 'start', to: 'big' },
      { from: 'flag', to: 'other' },
      { from: 'other', to: 'flag', when: false },
      { from: 1, to: 'flag', label: 'x' },
    );
    const result = validateAutomationBody(body);
    expect(result.ok ? [] : result.details).toEqual([
      { field: 'edges[2].to', message: 'unknown node "ghost"' },
      { field: 'edges[3].to', message: 'an edge cannot lead from a node to itself' },
      { field: 'edges[4]', message: 'duplicate edge from "start" to "big"' },
      { field: 'edges[5].to', message: 'a trigger node cannot have incoming edges' },
      { field: 'edges[6].when', message: 'only edges leaving a condition or an action.wait_for_event carry when' },
      { field: 'edges[7].label', message: 'unknown field' },
      { field: 'edges[7].from', message: 'must be a node id' },
    ]);
  });

  it('names the nodes of a cycle', () => {
    const result = validateAutomationBody({
      name: 'n',
      nodes: [manual, { id: 'a', type: 'action.delay', params: { seconds: 1 } }, { id: 'b', type: 'action.delay', params: { seconds: 1 } }],
      edges: [
        { from: 'm', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    });
    expect(result).toEqual({ ok: false, details: [{ field: 'edges', message: 'must not form a cycle: a → b → a' }] });
  });

  it('requires an outgoing edge on a condition and every node reachable from a trigger', () => {
    const result = validateAutomationBody({
      name: 'n',
      nodes: [manual, { id: 'c', type: 'condition', params: { expression: 'true' } }, { id: 'lost', type: 'action.delay', params: { seconds: 1 } }],
      edges: [{ from: 'm', to: 'c' }],
    });
    expect(result).toEqual({
      ok: false,
      details: [
        { field: 'nodes[1]', message: 'a condition needs at least one outgoing edge' },
        { field: 'nodes[2]', message: 'is not reachable from any trigger' },
      ],
    });
  });

  describe('params', () => {
    it('reports unknown and missing params', () => {
      expect(problemsOf({ type: 'action.delay', params: { seconds: 1, foo: 2 } })).toEqual([{ field: 'nodes[1].params.foo', message: 'unknown parameter' }]);
      expect(problemsOf({ type: 'action.send_email', params: {} }).map((problem) => `${problem.field} ${problem.message}`)).toEqual([
        'nodes[1].params.to is required',
        'nodes[1].params.subject is required',
        'nodes[1].params.text is required',
      ]);
    });

    it('checks triggers', () => {
      const trigger = (type: string, params: Record<string, unknown>): string[] => {
        const result = validateAutomationBody({ name: 'n', nodes: [{ id: 't', type, params }] });
        return result.ok ? [] : result.details.map((problem) => problem.field);
      };
      expect(trigger('trigger.event', { event: 'Entity.Created' })).toEqual(['nodes[0].params.event']);
      expect(trigger('trigger.event', { event: 'entity_state.updated.kyc_status', filter: 'data.(' })).toEqual(['nodes[0].params.filter']);
      expect(trigger('trigger.event', { event: 'state.updated' })).toEqual([]);
      expect(trigger('trigger.webhook', { secret: 'short' })).toEqual(['nodes[0].params.secret']);
      expect(trigger('trigger.webhook', { secret: 's'.repeat(16), name: 'Acme Pay' })).toEqual(['nodes[0].params.name']);
      expect(trigger('trigger.webhook', { hasSecret: 'yes' })).toEqual(['nodes[0].params.hasSecret']);
      expect(trigger('trigger.schedule', { cron: '*/15 * * * *', timezone: 'UTC' })).toEqual([]);
      expect(trigger('trigger.schedule', { cron: '0 0 * * * *', timezone: 'Mars/Base' })).toEqual(['nodes[0].params.cron', 'nodes[0].params.timezone']);
      expect(trigger('trigger.schedule', { cron: '61 * * * *', timezone: 'utc' })).toEqual(['nodes[0].params.cron', 'nodes[0].params.timezone']);
      expect(trigger('trigger.schedule', { cron: '0 0 L * *', timezone: 'America/New_York' })).toEqual(['nodes[0].params.cron']);
      expect(trigger('trigger.schedule', { cron: '@daily' })).toEqual(['nodes[0].params.cron', 'nodes[0].params.timezone']);
    });

    it('checks input schemas', () => {
      const schema = (inputSchema: unknown) => {
        const result = validateAutomationBody({ name: 'n', nodes: [{ id: 't', type: 'trigger.manual', params: { inputSchema } }] });
        return result.ok ? [] : result.details;
      };
      expect(schema({ type: 'object', properties: { a: {} }, required: ['a'], description: 'd' })).toEqual([]);
      expect(schema({ type: 'array', properties: { a: 1 }, required: ['a', 2], items: {} })).toEqual([
        { field: 'nodes[0].params.inputSchema.items', message: 'unknown parameter; allowed: type, properties, required, description' },
        { field: 'nodes[0].params.inputSchema.type', message: "must be 'object'" },
        { field: 'nodes[0].params.inputSchema.properties.a', message: 'must be an object (a JSON Schema)' },
        { field: 'nodes[0].params.inputSchema.required[1]', message: 'must be a non-empty string' },
      ]);
      expect(schema('x')).toEqual([{ field: 'nodes[0].params.inputSchema', message: 'must be an object' }]);
    });

    it('checks action params', () => {
      expect(fieldsOf({ type: 'action.http_request', params: { method: 'get', url: 'ftp://x' } })).toEqual(['nodes[1].params.method', 'nodes[1].params.url']);
      expect(fieldsOf({ type: 'action.http_request', params: { method: 'GET', url: '{{ trigger.url }}', headers: { 'Bad Name': 'x', ok: 1 } } })).toEqual([
        'nodes[1].params.headers.Bad Name',
        'nodes[1].params.headers.ok',
      ]);
      expect(fieldsOf({ type: 'action.gateway', params: { connectionId: '', operation: 'op', params: [] } })).toEqual([
        'nodes[1].params.connectionId',
        'nodes[1].params.params',
      ]);
      expect(fieldsOf({ type: 'action.record_event', params: { externalId: 'p', eventType: 'bonus', data: 'plain text' } })).toEqual(['nodes[1].params.data']);
      expect(fieldsOf({ type: 'action.upsert_entity', params: { entityType: 'player', externalId: 'p', data: 'a {{ x }}' } })).toEqual([
        'nodes[1].params.data',
      ]);
      expect(fieldsOf({ type: 'action.delay', params: { seconds: 0 } })).toEqual(['nodes[1].params.seconds']);
      expect(fieldsOf({ type: 'action.delay', params: { seconds: 1.5 } })).toEqual(['nodes[1].params.seconds']);
      expect(fieldsOf({ type: 'action.delay', params: { seconds: 2592001 } })).toEqual(['nodes[1].params.seconds']);
      expect(fieldsOf({ type: 'action.send_email', params: { to: 'nobody', subject: 's', text: 't' } })).toEqual(['nodes[1].params.to']);
      expect(fieldsOf({ type: 'action.send_email', params: { to: '{{ trigger.email }}', subject: 's', text: 't' } })).toEqual([]);
      expect(fieldsOf({ type: 'action.ai', params: { prompt: 'p', model: 5 } })).toEqual(['nodes[1].params.model']);
    });

    it('compiles templates at any depth and reports them at their path', () => {
      const problems = problemsOf({
        type: 'action.http_request',
        params: {
          method: 'POST',
          url: 'https://x.test/{{ ) }}',
          headers: { Authorization: 'Bearer {{ ( }}' },
          body: { items: [{ name: 'ok {{ 1 }}' }, { name: '{{ 1 + }}' }], open: 'a {{ b' },
        },
      });
      expect(problems.map((problem) => problem.field)).toEqual([
        'nodes[1].params.url',
        'nodes[1].params.headers.Authorization',
        'nodes[1].params.body.items[1].name',
        'nodes[1].params.body.open',
      ]);
      expect(problems[2]?.message).toBe('invalid expression: Unexpected end of expression');
      expect(problems[3]?.message).toBe("has a '{{' without a closing '}}'");
      const deep = JSON.parse(`${'['.repeat(100000)}${']'.repeat(100000)}`) as unknown;
      expect(problemsOf({ type: 'action.http_request', params: { method: 'POST', url: 'https://x.test', body: deep } })).toEqual([
        { field: `nodes[1].params.body${'[0]'.repeat(33)}`, message: 'must not be nested more than 32 levels deep' },
      ]);
    });
  });
});
