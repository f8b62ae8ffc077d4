import { ARRIVAL_WAIT_MAX_MS, PayloadBudget } from '../../activities/payloadBudget';

const MB = 1024 * 1024;

describe("an operator's budget of large data in a worker", () => {
  let now = 0;
  const budget = () => new PayloadBudget(MB / 2, 4 * MB, 64 * 1024, () => now);
  beforeEach(() => {
    now = 0;
  });

  it('lets small answers through free and makes an operator past its burst wait for the refill', () => {
    const large = budget();
    large.charge('noisy', 60 * 1024);
    expect(large.waitMs('noisy')).toBe(0);
    large.charge('noisy', 3 * MB);
    expect(large.waitMs('noisy')).toBe(0);
    large.charge('noisy', 3 * MB);
    expect(large.waitMs('noisy')).toBe(4_000);
    expect(large.waitMs('quiet')).toBe(0);
    now = 4_000;
    expect(large.waitMs('noisy')).toBe(0);
  });

  it('reserves the last large size, so calls of an operator that just brought megabytes wait for each other', async () => {
    const large = budget();
    const first = large.reserve('noisy');
    expect(first.reserved).toBe(0);
    await large.arrived(first, 3 * MB);
    expect(large.waitMs('noisy')).toBe(0);
    const second = large.reserve('noisy');
    expect(second.reserved).toBe(3 * MB);
    expect(large.waitMs('noisy')).toBe(4_000);
    expect(large.reserve('quiet').reserved).toBe(0);
    expect(large.waitMs('quiet')).toBe(0);
  });

  it('gives a reservation back when the call brought nothing large, and forgets the size once answers are small again', async () => {
    const large = budget();
    await large.arrived(large.reserve('noisy'), 3 * MB);
    const failed = large.reserve('noisy');
    large.release(failed);
    expect(large.waitMs('noisy')).toBe(0);
    const small = large.reserve('noisy');
    await large.arrived(small, 1_000);
    large.release(small);
    expect(large.waitMs('noisy')).toBe(0);
    expect(large.reserve('noisy').reserved).toBe(0);
  });

  it('makes a large answer in hand wait for the budget to hold it, at most ARRIVAL_WAIT_MAX_MS', async () => {
    jest.useFakeTimers();
    try {
      const large = budget();
      await large.arrived(large.reserve('noisy'), 3 * MB);
      const second = large.reserve('noisy');
      let charged = false;
      const pending = large.arrived(second, 3 * MB).then(() => (charged = true));
      await jest.advanceTimersByTimeAsync(ARRIVAL_WAIT_MAX_MS - 1);
      expect(charged).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await pending;
      expect(large.waitMs('noisy')).toBe(4_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('lets one execution per operator work on large data at a time, in order, while other operators and small work go on', async () => {
    const large = budget();
    const log: string[] = [];
    const gate = (() => {
      let open!: () => void;
      return { opened: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
    })();
    const work = (operatorId: string, name: string, isLarge: boolean, hold?: Promise<void>) =>
      large.scoped(operatorId, async () => {
        await Promise.resolve();
        if (isLarge) {
          await large.takeTurn();
          await large.takeTurn();
        }
        log.push(`${name} in`);
        await hold;
        log.push(`${name} out`);
      });
    const first = work('noisy', 'a', true, gate.opened);
    const second = work('noisy', 'b', true);
    const small = work('noisy', 'small', false);
    const other = work('quiet', 'q', true);
    await Promise.all([small, other]);
    expect([...log].sort()).toEqual(['a in', 'q in', 'q out', 'small in', 'small out']);
    gate.open();
    await Promise.all([first, second]);
    expect(log.slice(5)).toEqual(['a out', 'b in', 'b out']);
  });

  it('frees the turn when the execution fails', async () => {
    const large = budget();
    await expect(
      large.scoped('noisy', async () => {
        await large.takeTurn();
        throw new Error('supplier gone');
      }),
    ).rejects.toThrow('supplier gone');
    await expect(large.scoped('noisy', () => large.takeTurn().then(() => 'next'))).resolves.toBe('next');
  });
});
