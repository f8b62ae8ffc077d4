import { IGAMING_TEMPLATE } from '../../core/templates';
import { toolNameOf, withSuffix } from '../../core/automations/slug';
import { effectiveInputSchema, missingTriggerFields } from '../../core/automations/triggerSchema';

const template = IGAMING_TEMPLATE.schema;

describe('effective trigger schema', () => {
  it('takes the inputSchema of manual and webhook triggers', () => {
    const inputSchema = { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] };
    expect(effectiveInputSchema({ id: 't', type: 'trigger.manual', params: { inputSchema } }, template)).toEqual(inputSchema);
    expect(effectiveInputSchema({ id: 't', type: 'trigger.webhook', params: { inputSchema: { type: 'object' } } }, null)).toEqual({
      type: 'object',
      properties: {},
      required: [],
    });
    expect(effectiveInputSchema({ id: 't', type: 'trigger.manual', params: {} }, template)).toEqual({ type: 'object', properties: {}, required: [] });
  });

  it("uses the template's fields of an entity_event trigger", () => {
    const schema = effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity_event.transaction' } }, template);
    expect(schema.required).toEqual(['type', 'amount', 'currency']);
    expect(Object.keys(schema.properties)).toEqual(['type', 'amount', 'currency', 'id', 'reference', 'player_id', 'status', 'timestamp', 'provider']);
    expect(schema.properties.amount).toEqual({});
    const kyc = effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity_event.kyc' } }, template);
    expect(kyc.required).toEqual([]);
    expect(Object.keys(kyc.properties)).toContain('document_type');
  });

  it('is empty for other triggers, unknown event types and without a template', () => {
    const empty = { type: 'object', properties: {}, required: [] };
    expect(effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity.created' } }, template)).toEqual(empty);
    expect(effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity_event.constructor' } }, template)).toEqual(empty);
    expect(effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity_event.transaction' } }, null)).toEqual(empty);
    expect(effectiveInputSchema({ id: 't', type: 'trigger.schedule', params: { cron: '* * * * *', timezone: 'UTC' } }, template)).toEqual(empty);
  });

  it('lists required fields that are absent or null', () => {
    const schema = { type: 'object' as const, properties: {}, required: ['type', 'amount', 'currency'] };
    expect(missingTriggerFields(schema, { type: 'deposit', amount: null, currency: 'EUR' })).toEqual(['amount']);
    expect(missingTriggerFields(schema, { type: 'deposit', amount: 0, currency: '' })).toEqual([]);
    expect(missingTriggerFields(schema, 'text')).toEqual(['type', 'amount', 'currency']);
    expect(missingTriggerFields(schema, [1])).toEqual(['type', 'amount', 'currency']);
  });
});

describe('MCP tool names', () => {
  it('slugs workflow names', () => {
    expect(toolNameOf('Big deposit alert!')).toBe('big_deposit_alert');
    expect(toolNameOf('  Café -- KYC  ')).toBe('cafe_kyc');
    expect(toolNameOf('¿?')).toBe('workflow');
    expect(toolNameOf('a'.repeat(63) + ' b')).toBe('a'.repeat(63));
    expect(toolNameOf('x'.repeat(100))).toHaveLength(64);
  });

  it('adds suffixes within 64 characters', () => {
    expect(withSuffix('big_deposit_alert', 2)).toBe('big_deposit_alert_2');
    const long = withSuffix('x'.repeat(64), 12);
    expect(long).toBe(`${'x'.repeat(61)}_12`);
    expect(withSuffix(`${'y'.repeat(61)}_z`, 3)).toBe(`${'y'.repeat(61)}_3`);
  });
});
