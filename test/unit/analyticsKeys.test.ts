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
