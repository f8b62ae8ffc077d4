/**
 * `npm run bench:workflow-cost`: what a new run costs the worker before its first command, the platform's workflow
 * bundle beside its floor, a bundle of one workflow (tools/bench/temporal/workflows.ts). A worker keeps one V8 context for
 * all workflows (`reuseV8Context`), but evaluates the modules a workflow's code imports once per run and keeps them as
 * long as the run is cached (docs/workflows.md#what-a-run-costs-the-worker): this times the SDK's own creation of a
 * workflow from each bundle (`ReusableVMWorkflowCreator`, the creator a worker uses), in alternating rounds, and
 * reads the heap a cached workflow holds. No Temporal server, no database: nothing but the two bundles.
 */
import type { WorkflowInfo } from '@temporalio/workflow';
import { TypedSearchAttributes } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { ReusableVMWorkflowCreator } from '@temporalio/worker/lib/workflow/reusable-vm';
import { hoistWorkflowModules } from '../../worker/workflowBundle';
import { FAILURE_CONVERTER_PATH } from '../../temporal/dataConverter';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../worker/tracing';
import { runBench } from './lib/baseline';
import { median, percentile, say } from './lib/stats';

const CREATES = 300;
const ROUNDS = 5;
/** Workflows created and kept at once to read the heap each holds. */
const CACHED = 200;

interface Subject {
  name: string;
  workflowType: string;
  creator: ReusableVMWorkflowCreator;
}

/** The bundle a worker builds (processes/workflowBundle.ts), in the form the SDK's creator takes. */
async function creatorOf(workflowsPath: string, interceptors: string[]): Promise<ReusableVMWorkflowCreator> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    failureConverterPath: FAILURE_CONVERTER_PATH,
    workflowInterceptorModules: interceptors,
    logger: new DefaultLogger('WARN'),
    webpackConfigHook: hoistWorkflowModules,
  });
  const mapAt = code.lastIndexOf('//# sourceMappingURL=data:');
  const sourceMap = Buffer.from(code.slice(code.indexOf('base64,', mapAt) + 'base64,'.length).trimEnd(), 'base64').toString();
  return ReusableVMWorkflowCreator.create({ code: code.slice(0, mapAt), sourceMap: JSON.parse(sourceMap), filename: `${workflowsPath}.js` }, 5_000, new Set());
}

let serial = 0;
function create(subject: Subject) {
  serial += 1;
  const runId = `run-${serial}`;
  const now = Date.now();
  const info = {
    workflowId: `workflow-${serial}`,
    runId,
    workflowType: subject.workflowType,
    searchAttributes: {},
    typedSearchAttributes: new TypedSearchAttributes(),
    taskQueue: 'bench',
    namespace: 'default',
    firstExecutionRunId: runId,
    attempt: 1,
    startTime: new Date(now),
    runStartTime: new Date(now),
    taskTimeoutMs: 10_000,
    historyLength: 3,
    historySize: 300,
    continueAsNewSuggested: false,
    unsafe: { isReplaying: false, now: () => Date.now() },
  } as unknown as WorkflowInfo;
  return subject.creator.createWorkflow({ info, randomnessSeed: [serial], now, showStackTraceSources: false });
}

/** Milliseconds per creation, each workflow disposed of before the next, as a worker evicting at once would. */
async function timeCreates(subject: Subject, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const workflow = await create(subject);
    times.push(performance.now() - started);
    await workflow.dispose();
  }
  return times.sort((a, b) => a - b);
}

/** KiB of heap each of `CACHED` workflows holds while cached (needs `--expose-gc`, which the npm script gives). */
async function heapPerCached(subject: Subject): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return NaN;
  gc();
  const before = process.memoryUsage().heapUsed;
  const cached = [];
  for (let index = 0; index < CACHED; index += 1) cached.push(await create(subject));
  gc();
  const held = (process.memoryUsage().heapUsed - before) / CACHED / 1024;
  for (const workflow of cached) await workflow.dispose();
  return held;
}

async function main(): Promise<void> {
  say('bundling…');
  const subjects: Subject[] = [
    {
      name: 'platform (workflows/)',
      workflowType: 'diagnosticsWorkflow',
      creator: await creatorOf(require.resolve('../../workflows'), WORKFLOW_INTERCEPTOR_MODULES),
    },
    { name: 'floor (one workflow)', workflowType: 'oneActivity', creator: await creatorOf(require.resolve('./temporal/workflows'), []) },
  ];
  for (const subject of subjects) await timeCreates(subject, 50);
  const rounds = new Map<string, number[][]>(subjects.map((subject) => [subject.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const subject of subjects) rounds.get(subject.name)!.push(await timeCreates(subject, CREATES / ROUNDS));
  }
  say('');
  say(`${'bundle'.padEnd(24)} ${'creates'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'KiB cached'.padStart(11)}`);
  const p50s = new Map<string, number[]>();
  for (const subject of subjects) {
    const phases = rounds.get(subject.name)!;
    const all = phases.flat().sort((a, b) => a - b);
    p50s.set(
      subject.name,
      phases.map((phase) => percentile(phase, 50)),
    );
    const heap = await heapPerCached(subject);
    say(
      `${subject.name.padEnd(24)} ${String(all.length).padStart(8)} ${percentile(all, 50).toFixed(3).padStart(8)} ${percentile(all, 90).toFixed(3).padStart(8)} ${(Number.isNaN(heap) ? '—' : heap.toFixed(0)).padStart(11)}`,
    );
  }
  const [platform, floor] = subjects.map((subject) => p50s.get(subject.name)!);
  say(`platform / floor, creation p50, median of ${ROUNDS} alternating rounds: ${median(platform!.map((value, index) => value / floor![index]!)).toFixed(2)}`);
  for (const subject of subjects) await subject.creator.destroy();
}

runBench(main);
