/** The part of autocannon's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Histogram {
      p50: number;
      p99: number;
    }
    interface Result {
      duration: number;
      requests: { total: number };
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
    interface Request {
      method?: string;
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
    }
    interface Options {
      url: string;
      connections: number;
      amount?: number;
      duration?: number;
      /** Requests per second over all connections. */
      overallRate?: number;
      timeout?: number;
      requests?: Request[];
    }
    interface Instance {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
