import type { Knex } from 'knex';
import { complianceSettingsOf } from '../../core/compliance/settings';
import { internalEvent } from '../../core/events';
import type { EventWrite } from '../../core/ingestItems';
import type { ItemOutcome } from '../../db/ingest/results';
import type { Db } from '../../db/knex';
import { findComplianceSettings } from '../../db/queries/compliance';
import { fireHarmIndicators } from '../../db/queries/harmIndicators';
import { appendOutboxEvents } from '../../db/queries/outbox';

/** Only a deposit can cross a threshold: every other transaction (and every other event) costs nothing more. */
export const isDeposit = (write: EventWrite) => write.eventType === 'transaction' && write.data.type === 'deposit';

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
export function inTransaction<T>(runner: Db | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return 'isTransaction' in runner && runner.isTransaction ? work(runner as Knex.Transaction) : (runner as Db).transaction(work);
}

/**
 * The harm indicators (docs/compliance.md "Harm indicators") computed as transaction events are recorded: the
 * deposits just written are checked against the operator's thresholds, and each crossing becomes a `harm_indicators`
 * row and the internal event `harm.<indicator>` in the outbox, in one transaction, so automations trigger on it and
 * the gate reads the player as at risk. Runs inside the caller's transaction when there is one.
 */
export async function detectHarm(runner: Db | Knex.Transaction, operatorId: string, writes: EventWrite[], outcomes: ItemOutcome[]): Promise<number> {
  const ids = outcomes.flatMap((outcome, position) => (outcome.ok && writes[position] && isDeposit(writes[position]!) ? [outcome.id] : []));
  if (ids.length === 0) return 0;
  const detect = async (trx: Knex.Transaction) => {
    const { harm } = complianceSettingsOf(await findComplianceSettings(trx, operatorId));
    const fired = await fireHarmIndicators(trx, operatorId, ids, {
      velocity: harm.depositVelocity,
      reversedWindowMinutes: harm.depositAfterReversedWithdrawal.windowMinutes,
    });
    await appendOutboxEvents(
      trx,
      fired.map((row) =>
        internalEvent(
          operatorId,
          `harm.${row.indicator}`,
          { id: row.entity_id, externalId: row.external_id, entityType: row.entity_type },
          { indicator: row.indicator, ...row.details },
          row.fired_at,
        ),
      ),
    );
    return fired.length;
  };
  return inTransaction(runner, detect);
}
