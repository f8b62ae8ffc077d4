/**
 * Records the histories the replay test (test/replay/) replays: one throw-away platform (processes/stack.ts), every
 * workflow type driven through the API or its starter into the states that matter for versioning — a run asleep in
 * a delay, a run waiting mid-branch after its conditions, finished, failed, rejected and cancelled runs, an
 * event-fired run, a gateway lane that continued as new and its next run, a batch, the e-mails and the platform's
 * jobs. Payloads are opened with the stack's codec before writing, so the files hold no key and read as plain JSON.
 *
 *   npm run replay:record -- --label 2026-11-24-before-expression-sandbox
 *
 * Writes test/replay/histories/<label>/<name>.json and never overwrites a label: recorded histories are the
 * workflows in flight at that release, kept while such a run can still be alive (docs/workflows.md#versioning).
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startThrowawayServices } from '../stack/throwawayServices';
import { startStack } from '../../processes/stack';
import { post, signUpOperator } from '../stack/stackClient';
import { postgresPayloadStore } from '../../db/queries/temporalPayloads';
import { PlatformPayloadCodec } from '../../temporal/dataConverter';
import { historyJson, payloadsIn } from '../../temporal/historyPayloads';
import type { Recorder } from './replayRecorder';
import { recordScenarios } from './replayScenarios';

function labelArgument(): string {
  const index = process.argv.indexOf('--label');
  const label = index >= 0 ? process.argv[index + 1] : undefined;
  if (!label || !/^[a-z0-9][a-z0-9._-]*$/.test(label)) throw new Error('usage: npm run replay:record -- --label <release-label>');
  return label;
}

async function main(): Promise<void> {
  const label = labelArgument();
  const dir = path.resolve(__dirname, '../../test/replay/histories', label);
  if (existsSync(dir)) throw new Error(`${dir} exists: recorded histories are never overwritten; choose a new label`);
  const stack = await startStack({
    services: startThrowawayServices,
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', TEMPORAL_TASK_QUEUE: 'replay-record', GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' },
    log: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    const { deps, url } = stack.api;
    const operator = await signUpOperator(url);
    await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, operator.apiKey, 'PUT');
    const codec = new PlatformPayloadCodec(deps.keyring, deps.config.TEMPORAL_NAMESPACE, {
      store: postgresPayloadStore(deps.db),
      maxBytes: deps.config.TEMPORAL_PAYLOAD_MAX_BYTES,
    });
    const written: string[] = [];
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const recorder: Recorder = {
      url,
      operator,
      deps,
      async save(name, workflowId, runId) {
        const handle = deps.temporal.client.workflow.getHandle(workflowId, runId);
        const history = await handle.fetchHistory();
        const payloads = payloadsIn(history);
        const opened = await codec.decode(payloads);
        payloads.forEach((payload, index) => Object.assign(payload, opened[index]));
        const json = historyJson(history);
        const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? 'unknown';
        const file = path.join(partial, `${name}.json`);
        writeFileSync(file, `${JSON.stringify({ workflowId, workflowType: type, events: json.events.length, history: json }, null, 1)}\n`);
        written.push(`${name} (${type}, ${json.events.length} events)`);
      },
    };
    await recordScenarios(recorder);
    renameSync(partial, dir);
    process.stdout.write(`recorded into ${path.relative(process.cwd(), dir)}:\n${written.map((line) => `  ${line}`).join('\n')}\n`);
  } finally {
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
