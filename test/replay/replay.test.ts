import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../../temporal/dataConverter';
import { historyFromJson } from '../../temporal/historyPayloads';

interface Recorded {
  name: string;
  workflowId: string;
  workflowType: string;
  history: unknown;
}

const root = path.join(__dirname, 'histories');

/** Every history recorded by `npm run replay:record`, one folder per release label. */
function recorded(): Recorded[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.endsWith('.partial'))
    .flatMap((release) =>
      readdirSync(path.join(root, release.name))
        .filter((file) => file.endsWith('.json'))
        .map((file) => {
          const { workflowId, workflowType, history } = JSON.parse(readFileSync(path.join(root, release.name, file), 'utf8'));
          return { name: `${release.name}/${file.replace(/\.json$/, '')}`, workflowId, workflowType, history };
        }),
    );
}

/**
 * Replays the saved histories of every workflow type through today's workflow bundle (docs/workflows.md#versioning):
 * a change to a workflow's command sequence that is not behind `patched()` fails here with Temporal's
 * nondeterminism error, before it can reach a run in flight.
 */
describe('saved histories replay on the current workflow code', () => {
  beforeAll(() => Runtime.install({ logger: new DefaultLogger('WARN') }));
  const histories = recorded();
  const types = new Set(histories.map((history) => history.workflowType));

  it('covers every workflow type the worker registers', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the registered set, read at run time
    const registered = Object.keys(require('../../workflows')).filter((name) => name.endsWith('Workflow'));
    expect(registered.filter((name) => !types.has(name))).toEqual([]);
  });

  it.each(histories.map((history) => [history.name, history] as const))('%s', async (_name, history) => {
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
        dataConverter: { failureConverterPath: FAILURE_CONVERTER_PATH },
        replayName: history.name,
      },
      historyFromJson(history.history),
      history.workflowId,
    );
  });
});
