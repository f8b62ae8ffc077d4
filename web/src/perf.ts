let marked = false;

/**
 * Marks the moment the first screen can be used (rendered, handlers attached: effects run after the
 * commit), once per page load. test/e2e reads it to hold the dashboard to its budget (≤ 1 s).
 */
export function markInteractive(screen: string): void {
  if (marked) return;
  marked = true;
  performance.mark('app-interactive', { detail: screen });
}
