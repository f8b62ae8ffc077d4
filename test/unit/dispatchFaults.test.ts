import { SandboxUnavailableError } from '../../sandbox/expressionSandbox';
import { DispatchFaults, POISON_ATTEMPTS } from '../../worker/dispatchFaults';
import { OverShareError } from '../../worker/overShare';

describe('dispatch faults: what sets an event aside', () => {
  it('sets aside an event whose own content throws, on its third try, and forgets it once dispatched', () => {
    const faults = new DispatchFaults();
    const tries = Array.from({ length: POISON_ATTEMPTS }, () => faults.setAside('7', new RangeError('Maximum call stack size exceeded')));
    expect(tries).toEqual([false, false, true]);
    faults.forget(['7']);
    expect(faults.setAside('7', new TypeError('x'))).toBe(false);
  });

  it('never sets aside for an outage or a spent share, however often', () => {
    const faults = new DispatchFaults();
    const pgDown = Object.assign(new Error('terminating connection'), { code: '57P01' });
    for (const error of [pgDown, new SandboxUnavailableError('closed'), new OverShareError('op')])
      expect(Array.from({ length: 10 }, () => faults.setAside('8', error))).not.toContain(true);
  });
});
