import { prepareEvent } from '../../core/ingestItems';
import { MAX_EVENT_FUTURE_MS, occurrenceOf } from '../../core/occurrence';
import { IGAMING_TEMPLATE } from '../../core/templates';

const NOW = Date.parse('2026-12-02T05:00:00Z');
const at = (timestamp: unknown) => occurrenceOf({ timestamp }, NOW);

describe("an event's own time (data.timestamp)", () => {
  it('reads ISO 8601 instants with a zone and plain dates, of any age', () => {
    expect(at('2026-01-01')).toEqual({ ok: true, occurredAt: '2026-01-01T00:00:00.000Z' });
    expect(at('2026-01-01T10:00Z')).toEqual({ ok: true, occurredAt: '2026-01-01T10:00:00.000Z' });
    expect(at('2026-01-01 00:30:00+02:00')).toEqual({ ok: true, occurredAt: '2025-12-31T22:30:00.000Z' });
    expect(at('1999-12-31T23:59:59.123456-05:00')).toEqual({ ok: true, occurredAt: '2000-01-01T04:59:59.123Z' });
    expect(at(undefined)).toEqual({ ok: true, occurredAt: null });
    expect(at(null)).toEqual({ ok: true, occurredAt: null });
  });

  it('refuses a time without a zone, a day that does not exist, or anything but such a string', () => {
    for (const value of ['2026-01-01T10:00:00', '2026-02-30', '2026-01-01T24:00Z', 'yesterday', 1_700_000_000, {}, '0000-01-01']) {
      expect(at(value)).toEqual({ ok: false, problem: { field: 'data.timestamp', message: expect.stringMatching(/ISO 8601/) } });
    }
  });

  it(`takes up to ${MAX_EVENT_FUTURE_MS / 60_000} minutes ahead of the clock and no more`, () => {
    expect(at(new Date(NOW + MAX_EVENT_FUTURE_MS).toISOString())).toMatchObject({ ok: true });
    expect(at(new Date(NOW + MAX_EVENT_FUTURE_MS + 1000).toISOString())).toEqual({
      ok: false,
      problem: { field: 'data.timestamp', message: "must be at most 5 minutes ahead of the server's clock" },
    });
  });

  it('prepareEvent carries it, and names the field once when the template also refuses it', () => {
    const event = (data: Record<string, unknown>) => prepareEvent(IGAMING_TEMPLATE.schema, { externalId: 'p', eventType: 'transaction', data }, NOW);
    const base = { type: 'deposit', amount: 1, currency: 'EUR' };
    expect(event({ ...base, timestamp: '2025-06-01T12:00:00Z' })).toMatchObject({ ok: true, write: { occurredAt: '2025-06-01T12:00:00.000Z' } });
    expect(event(base)).toMatchObject({ ok: true, write: { occurredAt: null } });
    const refused = event({ ...base, timestamp: 'not a time' });
    expect(refused.ok ? [] : refused.error.details?.map((problem) => problem.field)).toEqual(['data.timestamp']);
  });
});
