import { need, objectOrExpression, text } from './checks';
import { objectOf, TEXT, type ActionModule } from './module';

/** `action.upsert_entity`: as the data API's entities; overwrites, and emits an event that may fire other workflows. */
export const upsertEntity: ActionModule = {
  label: 'Create or update a player',
  group: 'action',
  description: 'Creates the player, or merges these fields into it.',
  defaults: { entityType: 'player', externalId: '{{ trigger.entity.externalId }}', data: { status: 'active' } },
  params: { entityType: need(text()), externalId: need(text()), data: need(objectOrExpression) },
  branches: 'none',
  output: objectOf({ id: TEXT, externalId: TEXT, action: { enum: ['created', 'updated'] } }, ['id', 'externalId', 'action']),
  effect: () => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
};
