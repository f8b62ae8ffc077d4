import { send } from './pacer';
import { PLAYERS, type SoakFixtures } from './setup';

export interface Kind {
  name: string;
  /** Requests per second at `--scale 1`. */
  perSecond: number;
  maxInFlight: number;
  /** Sends request number `n`; throws on anything but the expected answer. */
  fire(n: number): Promise<void>;
}

export const BATCH_SIZE = 1000;

const expect = (answer: { status: number; body: any }, status: number, what: string) => {
  if (answer.status !== status) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
  return answer.body;
};

/**
 * The soak's mix. Each benchmark's figure is what that kind alone gets out of the whole machine, so the mix
 * takes a share of each such that the shares add up to about one half (docs/benchmarks.md, "Soak"):
 * single ingest 360/s (0.2 of 1,800), gateway 18/s (0.2 of ~90 at 8 concurrent), MCP tools/call 2/s (0.1 of
 * ~20 sequential), event-triggered runs 2/s (0.2 of the 10 events/s the workflows bench paces), one batch of
 * 1,000 events every 10 s (0.006 of 15,700 events/s) and analytics `/kpis` 1/s.
 */
export function soakKinds(url: string, fixtures: SoakFixtures, jobs: string[]): Kind[] {
  const { key } = fixtures;
  const player = (n: number) => `player-${n % PLAYERS}`;
  const gameActivity = (n: number) => ({ game_id: `game-${n % 20}`, bet_amount: 1 + (n % 50), currency: 'EUR' });
  return [
    {
      name: 'ingest',
      perSecond: 360,
      maxInFlight: 64,
      fire: async (n) => {
        expect(
          await send(`${url}/operator-data-api/entities/${player(n)}/events`, { key, body: { eventType: 'game_activity', data: gameActivity(n) } }),
          201,
          'ingest',
        );
      },
    },
    {
      name: 'batch',
      perSecond: 0.1,
      maxInFlight: 4,
      fire: async (n) => {
        const items = Array.from({ length: BATCH_SIZE }, (_, i) => ({ externalId: player(n + i), eventType: 'game_activity', data: gameActivity(i) }));
        jobs.push(expect(await send(`${url}/operator-data-api/batch/events`, { key, body: items }), 202, 'batch').data.jobId as string);
      },
    },
    {
      name: 'analytics',
      perSecond: 1,
      maxInFlight: 4,
      fire: async () => {
        expect(await send(`${url}/analytics-api/analytics/kpis`, { key }), 200, 'analytics');
      },
    },
    {
      name: 'gateway',
      perSecond: 18,
      maxInFlight: 16,
      fire: async (n) => {
        const body = expect(
          await send(`${url}/gateway`, { key, body: { connectionId: fixtures.connectionId, operation: 'kyc.status', params: { playerId: player(n) } } }),
          200,
          'gateway',
        );
        if (body.data?.status !== 'approved') throw new Error('gateway answered without translation');
      },
    },
    {
      name: 'mcp',
      perSecond: 2,
      maxInFlight: 8,
      fire: async (n) => {
        const body = expect(
          await send(`${url}/mcp-server`, {
            key,
            body: { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: fixtures.toolName, arguments: { playerId: player(n) } } },
          }),
          200,
          'mcp',
        );
        if (body.result?.isError !== false) throw new Error(`tools/call: ${JSON.stringify(body).slice(0, 160)}`);
      },
    },
    {
      name: 'event→run',
      perSecond: 2,
      maxInFlight: 8,
      fire: async (n) => {
        const data = { type: 'deposit', amount: 100 + (n % 900), currency: 'EUR', reference: `soak-${n}` };
        expect(await send(`${url}/operator-data-api/entities/${player(n)}/events`, { key, body: { eventType: 'transaction', data } }), 201, 'event');
      },
    },
  ];
}
