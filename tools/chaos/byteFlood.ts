/**
 * `node --import tsx tools/chaos/byteFlood.ts <url> <apiKey> <seconds> [clients]`: a tenant's byte flood in a process of
 * its own (so its uploads do not slow the measuring client; chaos scenario 6 and `body-budget.test.ts` run it at the
 * lowest and a low priority): `clients` loops, each POSTing a ~10 MB event
 * as soon as the last one was answered, reading the answer while still uploading and stopping the upload once
 * answered. A line `off` on stdin holds the loops after their current request, `on` lets them go again (a test
 * alternates flood and quiet over the same minute), `stop` ends them. Prints one JSON line: the answers by status, the 429s'
 * `Retry-After` values and first body, elapsed ms, the resets heard after the server's linger (`lateResets`) and the
 * first other answers.
 */
import { Agent, request } from 'node:http';
import readline from 'node:readline';
import { REFUSED_BODY_LINGER_MS } from '../../api/middleware/bodyBudget';

const [url, key, seconds, clients = '4'] = process.argv.slice(2);
/** Just under the 10 MiB body limit. */
const BODY = Buffer.from(JSON.stringify({ eventType: 'game_activity', data: { game_id: 'g-1', bet_amount: 1, notes: 'x'.repeat(10 * 1024 * 1024 - 200) } }));

interface Answer {
  status: number;
  retryAfter?: string;
  body: string;
  /** For a connection that failed (status 0): how long after the request was sent this client heard of it. */
  afterMs?: number;
}

function post(agent: Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const sent = performance.now();
    let answered = false;
    const req = request(`${url}/operator-data-api/entities/p-1/events`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(BODY.length) },
    });
    req.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer: Answer = { status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') };
        if (response.headers['retry-after'] !== undefined) answer.retryAfter = response.headers['retry-after'];
        resolve(answer);
        if (!req.writableFinished) req.destroy();
      });
      response.on('error', () => undefined);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ status: 0, body: error.code ?? error.message, afterMs: Math.round(performance.now() - sent) });
    });
    req.end(BODY);
  });
}

let holding = false;
let until = Number.POSITIVE_INFINITY;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  holding = line.trim() === 'off';
  if (line.trim() === 'stop') until = 0;
});
/** The pause after an answer that never came (a reset or refused connection). */
const ERROR_PAUSE_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  until = Date.now() + Number(seconds) * 1000;
  const started = Date.now();
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: Number(clients) }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (Date.now() < until) {
        if (holding) {
          await sleep(20);
          continue;
        }
        const answer = await post(agent);
        answers.push(answer);
        // A connection that failed is tried again after a pause, as any client would: a refused port is not a loop.
        if (answer.status === 0) await sleep(ERROR_PAUSE_MS);
      }
      agent.destroy();
    }),
  );
  const byStatus: Record<string, number> = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  const refused = answers.filter((answer) => answer.status === 429);
  // The server resets a refused body's connection REFUSED_BODY_LINGER_MS after its 429 (a request is answered within
  // its hold of at most 1 s): a reset heard later than that is this client not having read the answer in time — at
  // a low priority on a saturated machine it may not run for seconds — kept apart from what the server did.
  const late = (answer: Answer) => answer.status === 0 && answer.body === 'ECONNRESET' && (answer.afterMs ?? 0) >= REFUSED_BODY_LINGER_MS;
  process.stdout.write(
    `${JSON.stringify({
      elapsedMs: Date.now() - started,
      bodyBytes: BODY.length,
      byStatus,
      retryAfter: [...new Set(refused.map((answer) => answer.retryAfter))],
      refusal: refused[0]?.body ?? null,
      lateResets: answers.filter(late).length,
      other: answers.filter((answer) => answer.status !== 429 && answer.status !== 201 && !late(answer)).slice(0, 5),
    })}\n`,
  );
  process.exit(0);
}

void main();
