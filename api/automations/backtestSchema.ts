import { z } from 'zod';
import '../openapi/registry';
import { MAX_VERSION } from './versionSchema';

export const BacktestIdParams = z.object({ backtestId: z.string().min(1).max(200) });

export const BacktestBody = z
  .object({
    from: z.iso.datetime({ offset: true }).describe('Stored events recorded at or after this instant…'),
    to: z.iso.datetime({ offset: true }).describe('…and before this one (and already stored when the backtest is created)'),
    version: z.number().int().min(1).max(MAX_VERSION).optional().describe('A saved version to backtest'),
    definition: z
      .object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) })
      .strict()
      .optional()
      .describe("A draft definition to backtest (the editor's unsaved work); neither this nor version: the current version"),
    sampleOutputs: z
      .record(z.string().max(64), z.unknown())
      .optional()
      .describe('Per action step id: the output a condition reading that stubbed action takes; without one such a condition is undecidable'),
  })
  .strict()
  .openapi('WorkflowBacktestInput', { example: { from: '2026-03-01T00:00:00Z', to: '2026-03-15T00:00:00Z', version: 2 } });

const stepTally = z.object({ completed: z.number().int(), skipped: z.number().int(), failed: z.number().int(), undecidable: z.number().int() });
const wouldDo = z.object({
  nodeId: z.string(),
  type: z.string(),
  playerId: z.string().nullable(),
  method: z.string(),
  target: z.string().nullable(),
  template: z.string().nullable().describe('As written: only `{{ … }}` naming the player id is filled'),
});
const tally = {
  events: z.number().int().describe('Stored events of the types the definition listens to'),
  runs: z.number().int().describe('Runs that would start'),
  failedRuns: z.number().int().describe('Runs a condition would fail (an expression error)'),
  undecidableRuns: z.number().int().describe('Runs with a step that depends on a stubbed action without a sample output'),
  steps: z.record(z.string(), stepTally),
  actionsByType: z.record(z.string(), z.number().int()),
  actionsByNode: z.record(z.string(), z.number().int()),
  consumed: z.object({ actions: z.number().int(), aiActions: z.number().int() }).describe('Actions and AI Actions of the monthly quota the runs would use'),
  samples: z.array(wouldDo).describe('The first actions of each step that would fire (five a step), never performed'),
};
const playerList = z.object({ total: z.number().int(), ids: z.array(z.string()).describe('External ids (the first 1,000)') });

export const BacktestOutcome = z
  .object({
    backtested: z.object({
      version: z.number().int().nullable().describe('null: a draft'),
      ...tally,
      conditions: z.array(
        z.object({
          nodeId: z.string(),
          decidedBy: z.enum(['evaluated', 'sampleOutput', 'undecidable']),
          reads: z.array(z.string()).describe('Stubbed actions it may read'),
        }),
      ),
    }),
    baseline: z.object({ version: z.number().int(), active: z.boolean().describe('Whether the workflow was active when the backtest was created'), ...tally }),
    players: z.object({ affected: playerList, newlyAffected: playerList, noLongerAffected: playerList }),
    actionChanges: z
      .array(z.object({ nodeId: z.string(), type: z.string(), backtested: z.number().int(), active: z.number().int() }))
      .describe('Steps whose would-fire count differs from the current version (0 on one side: added or removed)'),
  })
  .openapi('WorkflowBacktestResult');

export const BacktestRecord = z
  .object({
    id: z.string().describe('bkt_…'),
    workflowId: z.string(),
    status: z.enum(['running', 'completed', 'cancelled', 'failed']),
    version: z.number().int().nullable().describe('The saved version backtested; null for a draft'),
    baselineVersion: z.number().int().describe('The current version, which the diff compares against'),
    from: z.string(),
    to: z.string(),
    total: z.number().int().describe('Stored events in the range of the types either definition listens to'),
    processed: z.number().int(),
    result: BacktestOutcome.nullable().describe('Once completed'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .openapi('WorkflowBacktest');
