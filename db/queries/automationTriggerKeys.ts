import type { TriggerKey } from '../../core/automations/triggerKeys';
import type { Knex } from 'knex';

/**
 * Replaces the automation's keys by its definition's (core/automations/triggerKeys.ts), in the transaction that wrote
 * the definition: the write itself left it hearing every event of each name (the `automations_trigger_keys` trigger),
 * so an automation written any other way is never narrowed by mistake.
 */
export async function narrowTriggerKeys(trx: Knex.Transaction, operatorId: string, automationId: string, keys: TriggerKey[]): Promise<void> {
  await trx('automation_trigger_keys').where({ operator_id: operatorId, automation_id: automationId }).delete();
  if (keys.length === 0) return;
  await trx('automation_trigger_keys').insert(
    keys.map((key) => ({
      operator_id: operatorId,
      automation_id: automationId,
      event: key.event,
      path: key.path,
      value_key: key.path === null ? null : trx.raw('trigger_key_of(?::jsonb)', [JSON.stringify(key.value ?? null)]),
    })),
  );
}
