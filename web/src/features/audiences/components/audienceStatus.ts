/** How often the audience's page looks again while it waits for the pass (which runs every 30 seconds). */
export const PASS_POLL_MS = 5_000;

/**
 * Whether the page should expect the audience pass to change what it shows: no pass has judged the audience yet, or
 * its definition changed (`changedAt`, the saved audience's `updated_at` after a save that made a new version) after
 * the last pass did. Both times are the database's clock. A rename alone moves `updated_at` but is judged by no pass,
 * so only a new version is waited for.
 */
export function awaitingPass(audience: { evaluated_at: string | null }, changedAt?: string): boolean {
  if (audience.evaluated_at === null) return true;
  return changedAt !== undefined && Date.parse(audience.evaluated_at) < Date.parse(changedAt);
}
