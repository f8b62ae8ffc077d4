import type { Knex } from 'knex';
import { AudienceDefinitionSchema } from '../../core/audienceDefinition';
import { internalEvent } from '../../core/events';
import { matchingSql } from './audienceSql';
import { appendOutboxEvents } from './outbox';

/** What one evaluation of an audience changed. */
export interface EvaluationResult {
  entered: number;
  exited: number;
  size: number;
}

/**
 * Re-judges an audience for `candidates` (entity ids; null, or a definition not yet evaluated: every player of the
 * operator) on `today` and applies the
 * difference, in ONE transaction holding the audience's row: members enter and leave, each entering player writes one
 * outbox event `audience.entered` and each leaving one `audience.exited` (no event for an erased player, who has no
 * identity left to name), and today's size row moves. Run twice, the second run finds nothing to change: nobody enters
 * twice. `baseline` (an audience's first evaluation) sets the members without events. Answers null when the audience
 * is gone.
 */
export async function evaluateAudience(
  db: Knex,
  input: { audienceId: string; operatorId: string; reportingCurrency: string; today: string; candidates: string[] | null },
): Promise<EvaluationResult | null> {
  return db.transaction(async (trx) => {
    const audience = await trx('audiences')
      .where({ id: input.audienceId, operator_id: input.operatorId })
      .forUpdate()
      .first('id', 'name', 'definition', 'version', 'evaluated_version', 'size');
    if (!audience) return null;
    const baseline = audience.evaluated_version === null;
    const candidates = audience.evaluated_version === audience.version ? input.candidates : null;
    const matching = matchingSql(AudienceDefinitionSchema.parse(audience.definition), { ...input, candidates });
    const scoped = candidates ? 'AND entity_id = ANY(CAST(? AS text[]))' : '';
    const result = await trx.raw<{ rows: Array<{ direction: 'in' | 'out'; entity_id: string; external_id: string | null }> }>(
      `WITH matching AS (${matching.sql}),
            scoped AS (SELECT entity_id FROM audience_members WHERE audience_id = ? ${scoped}),
            entering AS (SELECT entity_id FROM matching EXCEPT SELECT entity_id FROM scoped),
            leaving AS (SELECT entity_id FROM scoped EXCEPT SELECT entity_id FROM matching),
            added AS (
              INSERT INTO audience_members (audience_id, operator_id, entity_id)
              SELECT ?, ?, entity_id FROM entering ON CONFLICT DO NOTHING RETURNING entity_id
            ),
            removed AS (
              DELETE FROM audience_members m USING leaving l WHERE m.audience_id = ? AND m.entity_id = l.entity_id RETURNING m.entity_id
            )
       SELECT 'in' AS direction, a.entity_id, en.external_id FROM added a
         JOIN entities en ON en.id = a.entity_id AND en.operator_id = ?
       UNION ALL
       SELECT 'out', r.entity_id, CASE WHEN en.deleted_at IS NULL THEN en.external_id END FROM removed r
         LEFT JOIN entities en ON en.id = r.entity_id AND en.operator_id = ?`,
      [
        ...matching.bindings,
        input.audienceId,
        ...(candidates ? [candidates] : []),
        input.audienceId,
        input.operatorId,
        input.audienceId,
        input.operatorId,
        input.operatorId,
      ],
    );
    const entered = result.rows.filter((row) => row.direction === 'in');
    const exited = result.rows.filter((row) => row.direction === 'out');
    if (!baseline) {
      const event = (name: string, row: { entity_id: string; external_id: string | null }) =>
        internalEvent(
          input.operatorId,
          name,
          { id: row.entity_id, externalId: row.external_id!, entityType: 'player' },
          { audienceId: audience.id, audienceName: audience.name, externalId: row.external_id },
        );
      await appendOutboxEvents(trx, [
        ...entered.map((row) => event('audience.entered', row)),
        ...exited.filter((row) => row.external_id !== null).map((row) => event('audience.exited', row)),
      ]);
    }
    const size = Number(audience.size) + entered.length - exited.length;
    await trx('audiences')
      .where({ id: audience.id })
      .update({ size, evaluated_version: audience.version, evaluated_day: input.today, evaluated_at: trx.fn.now() });
    await trx.raw(
      `INSERT INTO audience_sizes (audience_id, day, size, entered, exited) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (audience_id, day) DO UPDATE SET size = excluded.size, entered = audience_sizes.entered + excluded.entered,
         exited = audience_sizes.exited + excluded.exited`,
      [audience.id, input.today, size, baseline ? 0 : entered.length, baseline ? 0 : exited.length],
    );
    return { entered: entered.length, exited: exited.length, size };
  });
}
