import type { ExpressionEvaluator, ExpressionOutcome, ExpressionTask, SingleExpressionTask } from '../sandbox/tasks';

/** Tasks sent to a sandbox process in one message: everyday filters take microseconds, far inside one task's budget. */
export const MAX_BATCH = 100;

interface Waiting {
  task: SingleExpressionTask;
  resolve(outcome: ExpressionOutcome): void;
  reject(error: unknown): void;
}

/**
 * The dispatcher's way into the sandbox: evaluations one operator asks for in the same turn of the event loop (the
 * filters of a window of events, judged together) go to a sandbox process as one batch — one round trip for many
 * events and filters instead of one each, each expression compiled once in the process (its compile cache). A batch
 * has one task's budget: the tasks of one that a filter stops (its CPU time, its memory) are evaluated one to a
 * message, so only the filter that stops on its own answers its budget's code. A batch refused for the operator's
 * share answers every task so (the dispatcher leaves the events for later).
 *
 * @example const filters = new EventFilters({ sandbox: new BatchedEvaluations(sandbox), logger })
 */
export class BatchedEvaluations implements ExpressionEvaluator {
  private readonly gathering = new Map<string, { waitMs: number | undefined; tasks: Waiting[] }>();
  /** Expressions of a batch a budget stopped lately, by until when they go one to a message. */
  private readonly alone = new Map<string, number>();

  constructor(
    private readonly sandbox: ExpressionEvaluator,
    private readonly now: () => number = Date.now,
  ) {}

  evaluate(operatorId: string, task: ExpressionTask, options: { waitMs?: number } = {}): Promise<ExpressionOutcome> {
    if (task.kind === 'batch' || this.isAlone(task)) return this.sandbox.evaluate(operatorId, task, options);
    return new Promise<ExpressionOutcome>((resolve, reject) => {
      let gathered = this.gathering.get(operatorId);
      if (!gathered) {
        gathered = { waitMs: options.waitMs, tasks: [] };
        this.gathering.set(operatorId, gathered);
        setImmediate(() => this.flush(operatorId));
      }
      gathered.tasks.push({ task, resolve, reject });
    });
  }

  private flush(operatorId: string): void {
    const gathered = this.gathering.get(operatorId);
    this.gathering.delete(operatorId);
    if (!gathered) return;
    for (let start = 0; start < gathered.tasks.length; start += MAX_BATCH)
      void this.send(operatorId, gathered.tasks.slice(start, start + MAX_BATCH), gathered.waitMs);
  }

  private async send(operatorId: string, waiting: Waiting[], waitMs: number | undefined): Promise<void> {
    try {
      const outcomes = await this.evaluateSplitting(
        operatorId,
        waiting.map((item) => item.task),
        waitMs,
      );
      waiting.forEach((item, index) => item.resolve(outcomes[index]!));
    } catch (error) {
      for (const item of waiting) item.reject(error);
    }
  }

  /**
   * A batch a budget stopped is not split in halves, whose every level would spend a budget and a process restart of
   * the operator's share again (a filter of 20 ms in a batch of 64 stopped five levels of them): its tasks go one to a
   * message, now and for {@link ALONE_MS}, and only a filter past its budget on its own answers that budget's code.
   */
  private async evaluateSplitting(operatorId: string, tasks: SingleExpressionTask[], waitMs: number | undefined): Promise<ExpressionOutcome[]> {
    const options = waitMs === undefined ? {} : { waitMs };
    if (tasks.length === 1) return [await this.sandbox.evaluate(operatorId, tasks[0]!, options)];
    const outcome = await this.sandbox.evaluate(operatorId, { kind: 'batch', tasks }, options);
    if (outcome.ok) return outcome.value as ExpressionOutcome[];
    if (outcome.code === 'EXPRESSION_BUDGET_EXCEEDED') return tasks.map(() => outcome);
    const until = this.now() + ALONE_MS;
    for (const task of tasks) this.alone.set(keyOf(task), until);
    if (this.alone.size > ALONE_KEPT) this.alone.delete(this.alone.keys().next().value!);
    return Promise.all(tasks.map((task) => this.sandbox.evaluate(operatorId, task, options)));
  }

  private isAlone(task: SingleExpressionTask): boolean {
    const until = this.alone.get(keyOf(task));
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.alone.delete(keyOf(task));
    return false;
  }
}

/** How long the expressions of a batch a budget stopped are sent alone. */
const ALONE_MS = 5 * 60_000;
const ALONE_KEPT = 10_000;

const keyOf = (task: SingleExpressionTask): string => (task.kind === 'condition' ? `c ${task.expression}` : `r ${JSON.stringify(task.params)}`);
