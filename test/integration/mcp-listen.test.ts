import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, mcpOperator, toolAutomation, type McpOperator } from '../helpers/mcp';
import { v2Client } from '../helpers/mcpTasksSession';

let app: TestApp;
let alice: McpOperator;
let bob: McpOperator;

beforeAll(async () => {
  app = await startTestApp({ MCP_MAX_STREAMS_PER_OPERATOR: '2' });
  [alice, bob] = await Promise.all([mcpOperator(app.url), mcpOperator(app.url)]);
});
afterAll(async () => {
  await app?.close();
});

const note = (id: string) => ({ id, type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'seen', value: 'yes' } });

/** Resolves with the next notification of `kind` the client hears, or rejects after `timeoutMs`. */
function heard(received: unknown[], count: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (received.length >= count) return resolve();
      if (Date.now() > until) return reject(new Error(`heard ${received.length} of ${count} notifications`));
      setTimeout(check, 50);
    };
    check();
  });
}

describe('subscriptions/listen (2026-07-28) with the official v2 client', () => {
  it('acknowledges the tools list filter, then announces changes of its own operator only, naming the subscription', async () => {
    const client = await v2Client(app.url, alice.key);
    const received: Array<{ params?: { _meta?: Record<string, unknown> } }> = [];
    client.setNotificationHandler('notifications/tools/list_changed', (notification) => void received.push(notification as never));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    try {
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await createWorkflow(app.url, bob.accessToken, toolAutomation('Bob listen tool', [note('remember')]));
      await createWorkflow(app.url, alice.accessToken, toolAutomation('Alice listen tool', [note('remember')]));
      await heard(received, 1);
      // Bob's change was committed and announced first: had it reached Alice's stream, it would be here before hers.
      expect(received).toHaveLength(1);
      expect(received[0]!.params?._meta?.['io.modelcontextprotocol/subscriptionId']).toEqual(expect.stringMatching(/^listen:/));
    } finally {
      await subscription.close();
      await client.close();
    }
  });

  it('takes one of the operator stream slots: beyond MCP_MAX_STREAMS_PER_OPERATOR it is refused, and a closed one frees its slot', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => v2Client(app.url, alice.key)));
    try {
      const first = await clients[0]!.listen({ toolsListChanged: true });
      const second = await clients[1]!.listen({ toolsListChanged: true });
      await expect(clients[2]!.listen({ toolsListChanged: true })).rejects.toThrow(/MCP_SESSION_LIMIT_EXCEEDED/);
      await first.close();
      const deadline = Date.now() + 10_000;
      let third: Awaited<ReturnType<(typeof clients)[number]['listen']>> | undefined;
      while (!third && Date.now() < deadline) {
        third = await clients[2]!.listen({ toolsListChanged: true }).catch(() => undefined);
        if (!third) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(third?.honoredFilter).toEqual({ toolsListChanged: true });
      await Promise.all([second.close(), third?.close()]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('is discovered: server/discover says tools list changes are announced', async () => {
    const client = await v2Client(app.url, alice.key);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    } finally {
      await client.close();
    }
  });
});
