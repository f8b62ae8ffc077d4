import { Readable } from 'node:stream';
import { z } from 'zod';
import { isTruncatedValue, type ValuePart } from '../../core/automations/runValues';
import { openRunParts } from '../../core/runSeal';
import { findRun } from '../../db/queries/automationRuns';
import { runValueChunks, runValueSize } from '../../db/queries/runValues';
import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { automations } from './area';
import { AppError } from '../errors';
import { CodedError, jsonContent } from '../openapi/registry';

export const StepValueParams = z.object({ runId: z.string().min(1).max(200), nodeId: z.string().min(1).max(200) });

/**
 * One step's input or output as JSON, whole: streamed chunk by chunk when the record holds it truncated (stored apart,
 * core/automations/runValues.ts), so the API never holds more than one chunk of it or parses it; a value the record
 * holds inline comes from the record (bounded). 404 for a run that is not the caller's operator's, or a step without it.
 */
const stepValueHandler = (part: ValuePart) =>
  automations.handler({ input: { params: StepValueParams } }, async ({ deps, ctx, input: { params }, principal: { operatorId } }) => {
    const exists = await deps.db('automation_runs').where({ operator_id: operatorId, id: params.runId }).first('id');
    if (!exists) throw new AppError(404, 'RUN_NOT_FOUND', 'Run not found');
    const notFound = () => new AppError(404, 'STEP_VALUE_NOT_FOUND', `Step ${params.nodeId} of run ${params.runId} has no ${part}`);
    const apart = await runValueSize(deps.db, operatorId, params.runId, params.nodeId, part);
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${params.runId}-${params.nodeId.replace(/[^\w.-]/g, '_')}-${part}.json"`);
    if (apart) {
      ctx.length = apart.bytes;
      ctx.body = Readable.from(runValueChunks(deps.db, deps.keyring, operatorId, params.runId, params.nodeId, part, apart.chunks));
      return;
    }
    const row = await findRun(deps.db, operatorId, params.runId);
    if (!row) throw new AppError(404, 'RUN_NOT_FOUND', 'Run not found');
    const node = (await openRunParts(deps.keyring, operatorId, row.id, row)).nodes.find((candidate) => candidate.id === params.nodeId);
    const value = node?.[part];
    // Truncated here but not stored apart: a record written before values were, whose whole value is gone.
    if (value === undefined || isTruncatedValue(value)) throw notFound();
    ctx.body = JSON.stringify(value);
  });

/** What a gateway step's output and input look like, as the endpoint answers them (a real one may be megabytes). */
const STEP_VALUE_EXAMPLES = {
  output: { status: 200, data: { playerId: 'p-1', status: 'approved', documents: [{ documentType: 'passport', status: 'approved' }] } },
  input: { connectionId: 'conn_1a2b3c', operation: 'kyc.status', params: { playerId: 'p-1' } },
};

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };

/** Declares `GET /runs/:runId/steps/:nodeId/output` and `/input` on the automations area (docs/workflows.md "Large step values"). */
export function declareRunValues(area: Pick<Area<AppDeps, never, Principal>, 'endpoint'>): void {
  for (const part of ['output', 'input'] as const) {
    area.endpoint({
      method: 'get',
      path: `/runs/:runId/steps/:nodeId/${part}`,
      summary: `One step's ${part}, whole, as JSON (streamed)`,
      description: `The step's ${part} exactly as the run recorded it, whatever its size: the run record (GET /runs/{runId}) holds a ${part} larger than 64 KiB (or past the record's 1 MiB of inline values) as \`{ _truncated: true, bytes, preview }\`, and this endpoint streams the whole JSON (Content-Length: its bytes; Content-Disposition: attachment). A small ${part} is answered from the record.`,
      responses: {
        200: {
          description: `The ${part}'s JSON, bare (not wrapped in { success, data })`,
          content: { 'application/json': { schema: z.unknown(), example: STEP_VALUE_EXAMPLES[part] } },
        },
        400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names the parameter'),
        ...auth,
        404: jsonContent(CodedError, `RUN_NOT_FOUND (also for another operator's run), or STEP_VALUE_NOT_FOUND: the step has no ${part}`),
      },
      ...stepValueHandler(part),
    });
  }
}
