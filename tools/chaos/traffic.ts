import { isConnectionError, request, sleep, unclean503 } from './lib';

/** A well-behaved client's sending, as the scenarios drive it and then check it against the database. */
export interface EventTraffic {
  /** References of the events the platform acknowledged (2xx). */
  acked: Set<string>;
  /** References sent at least once. */
  sent: Set<string>;
  fiveXx: number;
  /** Why an answer was not acceptable: a 5xx other than a clean 503, a 4xx, an event never acknowledged. */
  problems: string[];
  /** When each acknowledgement arrived (ms since the epoch). */
  ackTimes: number[];
  /** Stops sending new events; resolves once every client has had its current event acknowledged or given up. */
  stop(): Promise<void>;
}

/**
 * `clients` concurrent senders of `POST /operator-data-api/entities/<externalId>/events`, each event with its
 * own `Idempotency-Key`, retried with the same key on a connection error or a 5xx until acknowledged (at most
 * `giveUpMs`), as the API's clients are told to. `url()` is read for every attempt, so a restarted API on a new
 * address is followed.
 */
export function startEventTraffic(options: {
  url: () => string;
  key: string;
  externalId: string;
  eventType: string;
  data: (ref: string) => Record<string, unknown>;
  prefix: string;
  clients: number;
  /** Pause between two events of one client. */
  pauseMs?: number;
  retryPauseMs?: number;
  giveUpMs?: number;
}): EventTraffic {
  const traffic: Omit<EventTraffic, 'stop'> = { acked: new Set(), sent: new Set(), fiveXx: 0, problems: [], ackTimes: [] };
  let stopping = false;
  const path = `/operator-data-api/entities/${options.externalId}/events`;
  const client = async (index: number) => {
    for (let n = 0; !stopping; n += 1) {
      const ref = `${options.prefix}-${index}-${n}`;
      const giveUp = Date.now() + (options.giveUpMs ?? 90_000);
      traffic.sent.add(ref);
      for (;;) {
        if (Date.now() > giveUp) {
          traffic.problems.push(`${ref} never acknowledged`);
          break;
        }
        try {
          const answer = await request(options.url(), path, {
            body: { eventType: options.eventType, data: options.data(ref) },
            key: options.key,
            headers: { 'idempotency-key': ref },
            timeoutMs: 30_000,
          });
          if (answer.status < 300) {
            traffic.acked.add(ref);
            traffic.ackTimes.push(Date.now());
            break;
          }
          if (answer.status < 500) {
            traffic.problems.push(`${ref}: HTTP ${answer.status} ${answer.text.slice(0, 120)}`);
            break;
          }
          traffic.fiveXx += 1;
          const unclean = unclean503(answer);
          if (unclean) traffic.problems.push(unclean);
        } catch (error) {
          if (!isConnectionError(error)) throw error;
        }
        await sleep(options.retryPauseMs ?? 100);
      }
      if (options.pauseMs) await sleep(options.pauseMs);
    }
  };
  const running = Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  return {
    ...traffic,
    get fiveXx() {
      return traffic.fiveXx;
    },
    async stop() {
      stopping = true;
      await running;
    },
  };
}

/** When the first acknowledgement after `after` (ms since the epoch) arrived; now when none came within `timeoutMs`. */
export async function waitForAckAfter(traffic: Pick<EventTraffic, 'ackTimes'>, after: number, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const first = traffic.ackTimes.filter((time) => time >= after).sort((a, b) => a - b)[0];
    if (first !== undefined) return first;
    await sleep(20);
  }
  return Date.now();
}
