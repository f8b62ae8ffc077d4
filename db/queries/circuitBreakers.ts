import { hotQuery, numbered, type HotStatement } from '../hot';
import type { Db } from '../knex';

/** `closed`: send; `trial`: send as the one half-open trial; `open`: refuse without contacting the provider. */
export type Admission = 'closed' | 'trial' | 'open';
export type CircuitState = 'closed' | 'open' | 'half_open';

/** A breaker's answer to a call: whether it may go out, and whether the breaker was closed with nothing counted. */
export interface BreakerAdmission {
  admission: Admission;
  clean: boolean;
}

/** Asked on every gateway call's attempt, before it is sent. */
const ADMIT_CALL: HotStatement = {
  name: 'admit_call',
  text: numbered(`WITH claimed AS (
       UPDATE circuit_breakers
          SET state = 'half_open', trial_started_at = now(), updated_at = now()
        WHERE operator_id = ? AND provider = ?
          AND ((state = 'open' AND opened_at <= now() - make_interval(secs => ?))
            OR (state = 'half_open' AND trial_started_at <= now() - make_interval(secs => ?)))
       RETURNING 1
     )
     SELECT CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN 'trial'
                 ELSE COALESCE((SELECT CASE WHEN state = 'closed' THEN 'closed' ELSE 'open' END
                                  FROM circuit_breakers WHERE operator_id = ? AND provider = ?), 'closed')
            END AS admission,
            NOT EXISTS (SELECT 1 FROM circuit_breakers WHERE operator_id = ? AND provider = ? AND (state <> 'closed' OR consecutive_failures <> 0)) AS clean`),
};

/**
 * Decides whether a call to a provider may go out, in one statement so concurrent workers agree: an
 * open circuit whose `openSeconds` have passed (or a half-open one whose trial outlived `trialLeaseSeconds`)
 * is claimed for exactly one trial; everyone else sees it open. Time is the database's clock. `clean` says
 * the breaker was closed with no failure counted, so a healthy answer has nothing to reset.
 */
export async function admitCall(db: Db, operatorId: string, provider: string, openSeconds: number, trialLeaseSeconds: number): Promise<BreakerAdmission> {
  const [row] = await hotQuery<BreakerAdmission>(db, ADMIT_CALL, [
    operatorId,
    provider,
    openSeconds,
    trialLeaseSeconds,
    operatorId,
    provider,
    operatorId,
    provider,
  ]);
  return { admission: row?.admission ?? 'closed', clean: row?.clean ?? true };
}

/** A healthy answer closes the circuit and resets the count (spec 3.6); a no-op for an already clean breaker. */
export async function recordProviderSuccess(db: Db, operatorId: string, provider: string): Promise<void> {
  await db('circuit_breakers')
    .where({ operator_id: operatorId, provider })
    .andWhere((query) => query.whereNot('state', 'closed').orWhereNot('consecutive_failures', 0))
    .update({ state: 'closed', consecutive_failures: 0, opened_at: null, trial_started_at: null, updated_at: db.fn.now() });
}

/**
 * Counts one failure (a 5xx or no answer). The `threshold`-th consecutive one opens the circuit; a
 * failed half-open trial reopens it for another full period. Returns the state after the update.
 */
export async function recordProviderFailure(db: Db, operatorId: string, provider: string, threshold: number): Promise<CircuitState> {
  const result = await db.raw<{ rows: Array<{ state: CircuitState }> }>(
    `INSERT INTO circuit_breakers AS cb (operator_id, provider, state, consecutive_failures, opened_at, updated_at)
     VALUES (?, ?, CASE WHEN ?::int <= 1 THEN 'open' ELSE 'closed' END, 1, CASE WHEN ?::int <= 1 THEN now() END, now())
     ON CONFLICT (operator_id, provider) DO UPDATE SET
       consecutive_failures = cb.consecutive_failures + 1,
       state = CASE WHEN cb.state = 'half_open' OR cb.consecutive_failures + 1 >= ?::int THEN 'open' ELSE cb.state END,
       opened_at = CASE WHEN cb.state = 'half_open' OR (cb.state = 'closed' AND cb.consecutive_failures + 1 >= ?::int) THEN now()
                        ELSE cb.opened_at END,
       trial_started_at = NULL,
       updated_at = now()
     RETURNING state`,
    [operatorId, provider, threshold, threshold, threshold, threshold],
  );
  return result.rows[0]?.state ?? 'closed';
}
