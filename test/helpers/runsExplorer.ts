import type { Db } from '../../db/knex';

/**
 * Writes `count` finished runs of one automation straight into `automation_runs`, one a second back from now, so the
 * explorer can be measured at scale without starting as many workflows: player `p-<i mod 100>`; every tenth run
 * took `big:false` and failed at `notify`, the others took `big:true` and completed.
 */
export async function seedRuns(db: Db, operatorId: string, automationId: string, count: number): Promise<void> {
  await db.raw(
    `INSERT INTO automation_runs (id, operator_id, automation_id, automation_version, source, status, trigger_node_id, temporal_workflow_id,
                               input, output, nodes, error, subject_external_ids, usage_month, started_at, completed_at, duration_ms)
     SELECT 'run_' || md5(:operatorId || i), :operatorId, :automationId, 1, 'event',
            CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'completed' END, 'start', 'seed-' || md5(:operatorId || i),
            NULL, NULL,
            jsonb_build_array(
              jsonb_build_object('id', 'start', 'status', 'completed', 'durationMs', 0),
              jsonb_build_object('id', 'big', 'status', 'completed', 'branch', i % 10 <> 0, 'durationMs', 2),
              jsonb_build_object('id', 'flag', 'status', CASE WHEN i % 10 = 0 THEN 'skipped' ELSE 'completed' END, 'durationMs', 5),
              jsonb_build_object('id', 'notify', 'status', CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'skipped' END, 'durationMs', 7)),
            CASE WHEN i % 10 = 0 THEN '{"code": "HTTP_503", "nodeId": "notify"}'::jsonb END,
            ARRAY['p-' || (i % 100)], to_char(now(), 'YYYY-MM'),
            now() - i * interval '1 second', now() - i * interval '1 second' + interval '14 milliseconds', 14
       FROM generate_series(1, :count) AS i`,
    { operatorId, automationId, count },
  );
  await db.raw('ANALYZE automation_runs');
}
