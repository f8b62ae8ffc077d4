import { complianceSettingsOf } from '../../core/compliance/settings';
import { internalEvent } from '../../core/events';
import { findComplianceSettings } from '../../db/queries/compliance';
import { fireHarmIndicators, transactionsAmongOutbox, type CheckedEvent } from '../../db/queries/harmIndicators';
import { appendOutboxEvents } from '../../db/queries/outbox';
import type { PendingOutboxRow } from '../../db/queries/outboxDispatch';
import type { CommandDeps } from '../deps';

/**
 * The harm indicators (docs/compliance.md "Harm indicators") for the deposits among outbox rows a dispatcher has
 * claimed, computed before it starts any run for them: each crossing becomes a `harm_indicators` row and the internal
 * event `harm.<indicator>` in the outbox, committed per operator in a transaction of its own, so a marketing step of a
 * run the same deposit starts already reads the player as at risk. Ingestion writes every counted deposit's outbox row
 * pending for this (`HARM_CANDIDATE`) and stays one statement per event; a repeated check fires nothing. Answers how
 * many indicators fired.
 *
 * @example await detectHarm({ db }, { claimed }) // 1
 */
export async function detectHarm(
  deps: Pick<CommandDeps, 'db'>,
  input: { claimed: Array<Pick<PendingOutboxRow, 'seq' | 'operator_id' | 'event'>> },
): Promise<number> {
  const transactions = input.claimed.filter((row) => row.event === 'entity_event.transaction');
  if (transactions.length === 0) return 0;
  const recorded = await transactionsAmongOutbox(
    deps.db,
    transactions.map((row) => row.seq),
    [...new Set(transactions.map((row) => row.operator_id))],
  );
  const byOperator = new Map<string, CheckedEvent[]>();
  for (const { operator_id: operatorId, ...event } of recorded) {
    const events = byOperator.get(operatorId) ?? [];
    if (events.length === 0) byOperator.set(operatorId, events);
    events.push(event);
  }
  let fired = 0;
  for (const [operatorId, events] of [...byOperator].sort(([a], [b]) => a.localeCompare(b))) {
    fired += await deps.db.transaction(async (trx) => {
      const { harm } = complianceSettingsOf(await findComplianceSettings(trx, operatorId));
      const rows = await fireHarmIndicators(trx, operatorId, events, {
        velocity: harm.depositVelocity,
        reversedWindowMinutes: harm.depositAfterReversedWithdrawal.windowMinutes,
      });
      await appendOutboxEvents(
        trx,
        rows.map((row) =>
          internalEvent(
            operatorId,
            `harm.${row.indicator}`,
            { id: row.entity_id, externalId: row.external_id, entityType: row.entity_type },
            { indicator: row.indicator, ...row.details },
            row.fired_at,
          ),
        ),
      );
      return rows.length;
    });
  }
  return fired;
}
