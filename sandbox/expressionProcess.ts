/**
 * The sandbox process: evaluates tenant JSONata with nothing else to harm. It holds no connection but the one to its
 * parent, no secret (its environment holds only that socket's path and its one-time token) and no other tenant's work;
 * its parent kills it past the budget, and its heap limit (`--max-old-space-size`) ends it when an expression needs
 * too much — then the parent starts another.
 */
import net from 'node:net';
import { evaluate, isTruthy, loadJsonata, renderParams } from '../core/automations/expressions';
import { FrameReader, writeFrame } from './frames';
import { jsonSizeOver, MAX_OUTPUT_BYTES } from './outputSize';
import type { ExpressionOutcome, ParentMessage, SandboxMessage, SingleExpressionTask } from './tasks';

loadJsonata();

const { SANDBOX_SOCKET: socketPath = '', SANDBOX_TOKEN: token = '' } = process.env;
delete process.env.SANDBOX_SOCKET;
delete process.env.SANDBOX_TOKEN;
const parent = net.connect(socketPath);
const send = (message: SandboxMessage) => writeFrame(parent, message);
/**
 * The most of an expression's error message kept: JSONata quotes the values it failed on, which may be megabytes, and
 * the message travels into the run's history and record.
 */
const MAX_MESSAGE_CHARS = 2_000;
const messageOf = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
};

async function run(message: ParentMessage): Promise<ExpressionOutcome> {
  const { id, task } = message;
  send({ id, started: true });
  if (task.kind === 'batch') {
    const outcomes: ExpressionOutcome[] = [];
    for (const one of task.tasks) outcomes.push(await runOne(id, one));
    return { ok: true, value: outcomes };
  }
  return runOne(id, task);
}

async function runOne(id: number, task: SingleExpressionTask): Promise<ExpressionOutcome> {
  let field = task.kind === 'condition' ? task.field : 'params';
  try {
    if (task.kind === 'condition') return { ok: true, value: isTruthy(await evaluate(task.expression, task.context)) };
    const value = await renderParams(task.params, task.context, 'params', (next) => {
      field = next;
      send({ id, field });
    });
    const bytes = jsonSizeOver(value, MAX_OUTPUT_BYTES);
    if (bytes > MAX_OUTPUT_BYTES) return tooLarge(value);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, code: 'EXPRESSION_ERROR', message: messageOf(error), field };
  }
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The field of rendered params whose value is largest, to name in the refusal. */
function largestField(value: unknown, path: string): { field: string; bytes: number } {
  let largest = { field: path, bytes: jsonSizeOver(value, MAX_OUTPUT_BYTES * 4) };
  if (typeof value !== 'object' || value === null) return largest;
  for (const [key, inner] of Object.entries(value)) {
    const bytes = jsonSizeOver(inner, MAX_OUTPUT_BYTES * 4);
    if (bytes * 2 > largest.bytes) largest = { field: Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, bytes };
  }
  return largest;
}

/** Rendered params past {@link MAX_OUTPUT_BYTES}: refused here, before the value crosses back to the worker. */
function tooLarge(value: unknown): ExpressionOutcome {
  const { field, bytes } = largestField(value, 'params');
  const message = `The value of ${field} would be ${bytes > MAX_OUTPUT_BYTES * 4 ? 'over ' : ''}${megabytes(bytes)}, more than the ${megabytes(MAX_OUTPUT_BYTES)} an expression may produce`;
  return { ok: false, code: 'EXPRESSION_OUTPUT_TOO_LARGE', message, field };
}

const reader = new FrameReader((message) => {
  const { id } = message as ParentMessage;
  void run(message as ParentMessage).then((outcome) => send({ id, outcome }));
});
parent.on('data', (chunk: Buffer) => reader.push(chunk));
parent.on('close', () => process.exit(0));
parent.on('error', () => process.exit(0));
send({ ready: true, token });
