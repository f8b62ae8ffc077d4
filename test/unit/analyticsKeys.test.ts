import { ANALYTICS_KEY_LIMITS, prepareEvent } from '../../core/ingestItems';
import { IGAMING_TEMPLATE } from '../../core/templates';

const event = (data: Record<string, unknown>) => prepareEvent(IGAMING_TEMPLATE.schema, { externalId: 'p-1', eventType: 'game_activity', data });

describe('the fields analytics group by are bounded at ingest', () => {
  it('refuses a game name, game id, provider or currency longer than the views can index, naming the field', () => {
    for (const [field, limit] of Object.entries(ANALYTICS_KEY_LIMITS)) {
      expect(event({ game_id: 'g-1', bet_amount: 1, [field]: 'x'.repeat(limit + 1) })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_FAILED', details: expect.arrayContaining([{ field: `data.${field}`, message: `must be at most ${limit} characters` }]) },
      });
    }
  });

  it('takes them at their limit, and any other field at any length', () => {
    expect(event({ bet_amount: 1, game_id: 'g'.repeat(200), game_name: 'n'.repeat(200), provider: 'p'.repeat(200), notes: 'x'.repeat(100_000) })).toMatchObject(
      { ok: true },
    );
  });
});

describe('a grouping key that is not a string', () => {
  it('is measured as the text the views key on (its JSON), on any event type', () => {
    const session = prepareEvent(IGAMING_TEMPLATE.schema, { externalId: 'p-1', eventType: 'session', data: { currency: { huge: 'x'.repeat(100) } } });
    expect(session).toMatchObject({ ok: false, error: { details: [{ field: 'data.currency', message: 'must be at most 16 characters' }] } });
    expect(event({ game_id: 12345, bet_amount: 1, provider: ['p'.repeat(300)] })).toMatchObject({
      ok: false,
      error: { details: [{ field: 'data.provider', message: 'must be at most 200 characters' }] },
    });
  });
});
