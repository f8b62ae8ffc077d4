/**
 * What activities tell the worker's metrics (docs/metrics.md). The worker passes the Temporal runtime's meter
 * behind this; without one (tests that build activities by hand) nothing is recorded.
 */
export interface ActivityMetrics {
  /** One gateway call's end: `ok`, `http_4xx`, `http_5xx`, or the refusal or failure code in lower case. */
  gatewayCall(provider: string, outcome: string): void;
  /** A batch job's end, timed from its creation (what the client waited). */
  batchJobFinished(type: string, status: 'completed' | 'failed', seconds: number): void;
  /** An automation run's end. */
  runFinished(source: string, status: string): void;
  /** An automation run's first step began, `seconds` after Temporal started its workflow. */
  runBegun(source: string, seconds: number): void;
}

export const noActivityMetrics: ActivityMetrics = {
  gatewayCall: () => undefined,
  batchJobFinished: () => undefined,
  runFinished: () => undefined,
  runBegun: () => undefined,
};

/** The outcome label of a gateway call from what the gateway recorded of it. */
export function gatewayOutcomeOf(ok: boolean, status: number | null, code?: string): string {
  if (ok) return 'ok';
  if (code) return code.toLowerCase();
  if (status === null) return 'no_answer';
  return status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : 'http_other';
}
