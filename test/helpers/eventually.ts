/**
 * Polls until `check` holds, every 25 ms, failing after `timeoutMs`: for what another process does moments later (a
 * notification heard, an outbox row dispatched). A deadline, never a fixed sleep, so a loaded machine only waits longer.
 */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
