import { describe, expect, it } from '@jest/globals';
import { awaitingPass } from './audienceStatus';

describe('waiting for the audience pass', () => {
  it('waits until a first pass, and after a new version until a pass later than its save', () => {
    expect(awaitingPass({ evaluated_at: null })).toBe(true);
    expect(awaitingPass({ evaluated_at: '2026-12-02T10:00:30.000Z' })).toBe(false);
    expect(awaitingPass({ evaluated_at: '2026-12-02T10:00:30.000Z' }, '2026-12-02T10:01:00.000Z')).toBe(true);
    expect(awaitingPass({ evaluated_at: '2026-12-02T10:01:30.000Z' }, '2026-12-02T10:01:00.000Z')).toBe(false);
  });
});
