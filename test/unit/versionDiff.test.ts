import { diffVersions, type VersionDefinition } from '../../core/automations/versionDiff';

const base: VersionDefinition = {
  name: 'Big deposit alert',
  description: 'Flags large deposits',
  active: true,
  mcp_exposed: false,
  mcp_tool_name: 'big_deposit_alert',
  nodes: [
    { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
    {
      id: 'call',
      type: 'action.http_request',
      params: { method: 'POST', url: 'https://risk.example/check', headers: { 'X-Key': 'a', Accept: 'json' }, body: { items: [1, 2] } },
    },
  ],
  edges: [
    { from: 'start', to: 'big' },
    { from: 'big', to: 'call', when: true },
  ],
};

const diff = (after: VersionDefinition, before: VersionDefinition = base) =>
  diffVersions({ version: 1, definition: before }, { version: 2, definition: after });

describe('diffVersions', () => {
  it('finds nothing between equal definitions, whatever the key order', () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, item]) => [key, reversed(item)]),
            )
          : value;
    const reordered = reversed(base) as VersionDefinition;
    expect(diff(reordered)).toEqual({ from: 1, to: 2, fields: [], nodes: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [] } });
  });

  it('lists changed top-level fields with before and after, and treats a field absent in one and null in the other as unchanged', () => {
    const result = diff({ ...base, name: 'Huge deposit alert', run_control: { concurrency: { limit: 1, mode: 'skip' } } });
    expect(result.fields).toEqual([
      { field: 'name', before: 'Big deposit alert', after: 'Huge deposit alert' },
      { field: 'run_control', after: { concurrency: { limit: 1, mode: 'skip' } } },
    ]);
    expect(diff({ ...base, run_control: null }).fields).toEqual([]);
  });

  it('reports each changed param by its path, nested objects and arrays walked into, keys quoted when not plain names', () => {
    const call = base.nodes[2]!;
    const changedCall = {
      ...call,
      params: { method: 'POST', url: 'https://risk.example/v2', headers: { 'X-Key': 'b', Accept: 'json' }, body: { items: [1, 3, 4] }, timeoutMs: 500 },
    };
    const result = diff({ ...base, nodes: [base.nodes[0]!, base.nodes[1]!, changedCall] });
    expect(result.nodes).toEqual({
      added: [],
      removed: [],
      changed: [
        {
          id: 'call',
          params: [
            { path: 'body.items[1]', before: 2, after: 3 },
            { path: 'body.items[2]', after: 4 },
            { path: 'headers["X-Key"]', before: 'a', after: 'b' },
            { path: 'timeoutMs', after: 500 },
            { path: 'url', before: 'https://risk.example/check', after: 'https://risk.example/v2' },
          ],
        },
      ],
    });
  });

  it('shows a type change beside the params, and a value that changes kind as one change', () => {
    const result = diff({ ...base, nodes: [base.nodes[0]!, base.nodes[1]!, { id: 'call', type: 'action.delay', params: { seconds: 5, body: 'x' } }] });
    expect(result.nodes.changed).toEqual([
      {
        id: 'call',
        type: { before: 'action.http_request', after: 'action.delay' },
        params: [
          { path: 'body', before: { items: [1, 2] }, after: 'x' },
          { path: 'headers', before: { 'X-Key': 'a', Accept: 'json' } },
          { path: 'method', before: 'POST' },
          { path: 'seconds', after: 5 },
          { path: 'url', before: 'https://risk.example/check' },
        ],
      },
    ]);
  });

  it('lists added and removed nodes whole, and edges by their ends and branch (a flipped branch is one removed, one added)', () => {
    const wait = { id: 'wait', type: 'action.delay' as const, params: { seconds: 10 } };
    const result = diff({
      ...base,
      nodes: [base.nodes[0]!, base.nodes[1]!, wait],
      edges: [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'wait', when: false },
      ],
    });
    expect(result.nodes).toEqual({ added: [wait], removed: [base.nodes[2]], changed: [] });
    expect(result.edges).toEqual({ added: [{ from: 'big', to: 'wait', when: false }], removed: [{ from: 'big', to: 'call', when: true }] });
    const flipped = diff({ ...base, edges: [base.edges[0]!, { from: 'big', to: 'call', when: false }] });
    expect(flipped.edges).toEqual({ added: [{ from: 'big', to: 'call', when: false }], removed: [{ from: 'big', to: 'call', when: true }] });
  });

  it('compares in either direction', () => {
    const later = { ...base, description: 'Flags deposits' };
    expect(diffVersions({ version: 3, definition: later }, { version: 1, definition: base })).toMatchObject({
      from: 3,
      to: 1,
      fields: [{ field: 'description', before: 'Flags deposits', after: 'Flags large deposits' }],
    });
  });
});
