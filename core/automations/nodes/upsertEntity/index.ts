import { need, objectOrExpression, text } from '../checks';
import { objectOf, TEXT, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/** `action.upsert_entity`: as the data API's entities; overwrites, and emits an event that may fire other workflows. */
export const upsertEntity: ActionModule = {
  ...flow,
  label: 'Create or update a player',
  description: 'Creates the player, or merges these fields into it.',
  defaults: { entityType: 'player', externalId: '{{ trigger.entity.externalId }}', data: { status: 'active' } },
  fields: [
    { kind: 'text', name: 'entityType', label: 'Entity type', required: true, suggestions: ['player'] },
    { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
    { kind: 'object', name: 'data', label: 'Fields' },
  ],
  branchLabels: null,
  params: { entityType: need(text()), externalId: need(text()), data: need(objectOrExpression) },
  output: objectOf({ id: TEXT, externalId: TEXT, action: { enum: ['created', 'updated'] } }, ['id', 'externalId', 'action']),
  effect: () => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
  wouldDo: (p) => ({ method: 'UPSERT_ENTITY', target: p.entityType, template: p.data }),
};
