import { describe, expect, it } from '@jest/globals';
import { majorUnits } from './fieldTypes';

describe('majorUnits', () => {
  it('shows minor units as major ones with two decimals and grouped thousands', () => {
    expect(majorUnits(150000)).toBe('1,500.00');
    expect(majorUnits(5000)).toBe('50.00');
  });
});
