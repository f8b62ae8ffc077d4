import type { WorkflowInput } from './graph';

export interface Recipe {
  id: string;
  title: string;
  description: string;
  definition: WorkflowInput;
}

/** Starting points for a first automation, editable like any other workflow. */
export const RECIPES: Recipe[] = [
  {
    id: 'big-deposit',
    title: 'Big deposit alert',
    description: 'When a player deposits more than 1,000.00, raise their risk score.',
    definition: {
      name: 'Big deposit alert',
      description: 'Flags large deposits',
      active: true,
      mcp_exposed: false,
      nodes: [
        { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
        { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 } },
      ],
      edges: [
        { from: 'deposit', to: 'big' },
        { from: 'big', to: 'flag', when: true },
      ],
    },
  },
  {
    id: 'welcome',
    title: 'Welcome new players',
    description: 'When a player is created, set their loyalty tier and record a welcome bonus.',
    definition: {
      name: 'Welcome new players',
      description: 'Loyalty tier and a welcome bonus for every new player',
      active: true,
      mcp_exposed: false,
      nodes: [
        { id: 'created', type: 'trigger.event', params: { event: 'entity.created' } },
        { id: 'tier', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'bronze' } },
        {
          id: 'bonus',
          type: 'action.record_event',
          params: { externalId: '{{ trigger.entity.externalId }}', eventType: 'bonus', data: { type: 'welcome', amount: 1000, currency: 'EUR' } },
        },
      ],
      edges: [
        { from: 'created', to: 'tier' },
        { from: 'tier', to: 'bonus' },
      ],
    },
  },
  {
    id: 'welcome-journey',
    title: 'Welcome journey',
    description: 'Welcome a new player by email; if they have not deposited within 24 hours, remind them. One journey per player at a time.',
    definition: {
      name: 'Welcome journey',
      description: 'Welcome email, then a reminder unless the player deposits within 24 hours',
      active: true,
      mcp_exposed: false,
      nodes: [
        { id: 'created', type: 'trigger.event', params: { event: 'entity.created', filter: 'trigger.entity.entityType = "player"' } },
        {
          id: 'welcome',
          type: 'action.send_email',
          params: {
            to: '{{ trigger.data.email }}',
            subject: 'Welcome!',
            text: 'Welcome aboard, {{ trigger.entity.externalId }}. Your first deposit unlocks your bonus.',
          },
        },
        {
          id: 'deposit',
          type: 'action.wait_for_event',
          params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds: 86_400 },
        },
        {
          id: 'reminder',
          type: 'action.send_email',
          params: { to: '{{ trigger.data.email }}', subject: 'Your welcome bonus is waiting', text: 'Make your first deposit to claim it.' },
        },
      ],
      edges: [
        { from: 'created', to: 'welcome' },
        { from: 'welcome', to: 'deposit' },
        { from: 'deposit', to: 'reminder', when: false },
      ],
      run_control: { concurrency: { limit: 1, when_busy: 'skip' } },
    },
  },
  {
    id: 'blank',
    title: 'Start from scratch',
    description: 'One manual trigger; add the steps yourself.',
    definition: {
      name: 'New workflow',
      description: '',
      active: false,
      mcp_exposed: false,
      nodes: [{ id: 'start', type: 'trigger.manual', params: {} }],
      edges: [],
    },
  },
];
