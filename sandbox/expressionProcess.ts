/**
 * The sandbox process: evaluates tenant JSONata with nothing else to harm. It holds no connection, no secret (its
 * environment is empty) and no other tenant's work; its parent kills it past the budget, and its heap limit
 * (`--max-old-space-size`) ends it when an expression needs too much — then the parent starts another.
 */
import { evaluate, isTruthy, loadJsonata, renderParams } from '../core/automations/expressions';
import type { ExpressionOutcome, ParentMessage, SandboxMessage, SingleExpressionTask } from './tasks';

loadJsonata();

const send = (message: SandboxMessage) => process.send?.(message);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
    return { ok: true, value };
  } catch (error) {
    return { ok: false, code: 'EXPRESSION_ERROR', message: messageOf(error), field };
  }
}

process.on('message', (message: ParentMessage) => {
  void run(message).then((outcome) => send({ id: message.id, outcome }));
});
process.on('disconnect', () => process.exit(0));
send({ ready: true });
