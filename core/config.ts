import { z } from 'zod';

/**
 * Rate-limit classes: each is counted per operator (per client IP for `auth` and `invites:public`, per acting user
 * for `invites:member`) per window, one minute unless `RATE_LIMIT_WINDOW_SECONDS` names another.
 */
export const RATE_LIMIT_CLASSES = {
  'ingest:realtime': 'RATE_LIMIT_INGEST_REALTIME',
  'ingest:batch': 'RATE_LIMIT_INGEST_BATCH',
  'gateway:execute': 'RATE_LIMIT_GATEWAY_EXECUTE',
  'analytics:read': 'RATE_LIMIT_ANALYTICS_READ',
  'analytics:export': 'RATE_LIMIT_ANALYTICS_EXPORT',
  'analytics:refresh': 'RATE_LIMIT_ANALYTICS_REFRESH',
  mcp: 'RATE_LIMIT_MCP',
  auth: 'RATE_LIMIT_AUTH',
  'invites:operator': 'RATE_LIMIT_INVITES_PER_OPERATOR',
  'invites:member': 'RATE_LIMIT_INVITES_PER_MEMBER',
  'invites:public': 'RATE_LIMIT_INVITES_PUBLIC',
  'runs:start': 'RATE_LIMIT_RUNS',
  'expressions:preview': 'RATE_LIMIT_EXPRESSION_PREVIEW',
  oauth: 'RATE_LIMIT_OAUTH',
  'oauth:register': 'RATE_LIMIT_OAUTH_REGISTER',
} as const;
export type RateLimitClass = keyof typeof RATE_LIMIT_CLASSES;

/** Classes counted per hour rather than per minute: each invite sends an email to an address the caller chose. */
export const RATE_LIMIT_WINDOW_SECONDS: Partial<Record<RateLimitClass, number>> = { 'invites:operator': 3600, 'invites:member': 3600, 'oauth:register': 3600 };

/** A class's limit: at most `points` requests per subject in each window of `windowSeconds`. */
export interface RateLimitRule {
  points: number;
  windowSeconds: number;
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8080),
  TRUST_PROXY: bool.default(false),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The API's Prometheus listener, apart from the public port (docs/metrics.md): unset = none, 0 = a free port. */
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The worker's Temporal SDK Prometheus exporter (with the worker's own series), on METRICS_HOST; unset = none. A fixed port: the exporter does not say which one 0 picked. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),

  DATABASE_URL: optionalString.pipe(z.url().optional()),
  DATABASE_POOL_MAX: positiveInt.default(20),
  EMBEDDED_PG_PORT: port.default(54329),

  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('operator-platform'),
  /**
   * The interactive task queue is TEMPORAL_TASK_QUEUE itself, the background one `<TEMPORAL_TASK_QUEUE>-background`
   * (temporal/taskQueues.ts); false puts everything on the one queue, as before the split.
   */
  TEMPORAL_SPLIT_QUEUES: bool.default(true),
  /** Whether the API process creates the platform's Schedules at start (and moves them to its queues); `false` for an instance on a queue of its own beside a live deployment. */
  PLATFORM_SCHEDULES: bool.default(true),
  /** The queues a worker process polls: production scales the two roles apart (docs/production.md). */
  WORKER_QUEUES: z.enum(['all', 'interactive', 'background']).default('all'),
  /** TLS to Temporal: unset = on when a TLS file or TEMPORAL_API_KEY is given; false = off even with an API key. */
  TEMPORAL_TLS: bool.optional(),
  /** PEM files: the CA that signed the server's certificate (unset: the system's roots), and the client's mTLS pair. */
  TEMPORAL_TLS_CA_PATH: optionalString,
  TEMPORAL_TLS_CERT_PATH: optionalString,
  TEMPORAL_TLS_KEY_PATH: optionalString,
  /** The name the server's certificate is checked against, when it is not the host of TEMPORAL_ADDRESS. */
  TEMPORAL_TLS_SERVER_NAME: optionalString,
  /** Sent as `authorization: Bearer …` on every call (Temporal Cloud API keys). */
  TEMPORAL_API_KEY: optionalString,
  /** The largest payload handed to Temporal; larger ones rest in PostgreSQL behind a reference (temporal/claimCheckCodec.ts). */
  TEMPORAL_PAYLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024)
    .default(128 * 1024),
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_UI_URL: optionalString.pipe(z.url().optional()),
  /** Operators whose Owner may decode Temporal payloads at `/temporal-codec` (comma-separated ids; `*`: any Owner, refused in production). */
  TEMPORAL_CODEC_OPERATORS: optionalString,
  WORKFLOW_BUNDLE_PATH: optionalString,

  DATA_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex characters or base64')
      .optional(),
  ),
  DATA_ENCRYPTION_PREVIOUS_KEYS: optionalString,

  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  JWT_ACCESS_TTL_SECONDS: positiveInt.default(3600),
  REFRESH_TOKEN_TTL_DAYS: positiveInt.default(30),
  /** Lifetime of the dashboard credential (`POST /auth/v1/dashboard-credential`): minutes, renewed by the dashboard. */
  DASHBOARD_CREDENTIAL_TTL_SECONDS: positiveInt.default(300),

  ALLOWED_ORIGINS: z.string().default('*'),
  BODY_LIMIT_BYTES: positiveInt.default(10 * 1024 * 1024),
  WEBHOOK_BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  /** Request body bytes an organisation (or, without a credential, a client address) may send one API instance per second, and at once (api/middleware/bodyBudget.ts); the burst holds at least one BODY_LIMIT_BYTES body. */
  BODY_BYTES_PER_SECOND: positiveInt.default(2 * 1024 * 1024),
  BODY_BYTES_BURST: positiveInt.default(20 * 1024 * 1024),
  API_KEY_USAGE_FLUSH_MS: positiveInt.default(5000),
  /** How long an API instance answers API keys, members and operator settings from memory (0: never). */
  CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),

  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  SMTP_FROM: z.string().min(3).default('Operator Platform <no-reply@localhost>'),

  GATEWAY_TIMEOUT_MS: positiveInt.default(10_000),
  GATEWAY_MAX_ATTEMPTS: positiveInt.max(10).default(3),
  GATEWAY_MAX_RESPONSE_BYTES: positiveInt.default(5 * 1024 * 1024),
  GATEWAY_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  GATEWAY_CIRCUIT_FAILURE_THRESHOLD: positiveInt.default(5),

  /** Longest a statement of an analytics read may run before PostgreSQL cancels it (answered 503 `QUERY_TIMEOUT`). */
  ANALYTICS_STATEMENT_TIMEOUT_MS: positiveInt.default(10_000),

  MCP_CROSS_INSTANCE_AFFINITY: bool.default(true),
  MCP_HEARTBEAT_MS: positiveInt.default(15_000),
  MCP_MAX_STREAMS_PER_OPERATOR: positiveInt.max(1000).default(5),
  MCP_CALL_WAIT_MS: positiveInt.default(55_000),

  RATE_LIMIT_INGEST_REALTIME: positiveInt.default(60000),
  RATE_LIMIT_INGEST_BATCH: positiveInt.default(120),
  RATE_LIMIT_GATEWAY_EXECUTE: positiveInt.default(6000),
  RATE_LIMIT_ANALYTICS_READ: positiveInt.default(200),
  RATE_LIMIT_ANALYTICS_EXPORT: positiveInt.default(5),
  RATE_LIMIT_ANALYTICS_REFRESH: positiveInt.default(1),
  RATE_LIMIT_MCP: positiveInt.default(600),
  RATE_LIMIT_AUTH: positiveInt.default(60),
  RATE_LIMIT_INVITES_PER_OPERATOR: positiveInt.default(20),
  RATE_LIMIT_INVITES_PER_MEMBER: positiveInt.default(10),
  RATE_LIMIT_INVITES_PUBLIC: positiveInt.default(30),
  /** Runs an operator may start by hand (`POST /workflows/:id/test`) and through its webhooks, per minute. */
  RATE_LIMIT_RUNS: positiveInt.default(600),
  /** Expression previews an operator's editors may ask for (`POST /workflows-api/expressions/preview`), per minute. */
  RATE_LIMIT_EXPRESSION_PREVIEW: positiveInt.default(300),
  /** Requests to the OAuth endpoints for MCP hosts (metadata, authorize, token, revoke, consent), per client address per minute. */
  RATE_LIMIT_OAUTH: positiveInt.default(120),
  /** Dynamic Client Registrations per client address per hour (each one is a row until it expires unused). */
  RATE_LIMIT_OAUTH_REGISTER: positiveInt.default(30),
  /** Lets a Client ID Metadata Document be fetched from loopback and private addresses, over http to loopback: tests and local development only. */
  OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** A PEM file of certificate authorities trusted, besides the public ones, when fetching Client ID Metadata Documents (a private PKI, tests). */
  OAUTH_CIMD_CA_FILE: optionalString,

  BATCH_CHUNK_SIZE: z.coerce.number().int().min(1).max(5000).default(1000),

  QUOTA_ACTIONS_PER_MONTH: z.coerce.number().int().min(0).default(10_000),
  QUOTA_AI_ACTIONS_PER_MONTH: z.coerce.number().int().min(0).default(1_000),
  /** Tenant expressions (conditions, filters, `{{ }}` templates) run in sandbox processes: CPU budget of one evaluation (its wall clock is cut at ten times that), old-space heap of each process, processes per worker. */
  EXPRESSION_TIMEOUT_MS: positiveInt.max(10_000).default(50),
  EXPRESSION_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(128),
  EXPRESSION_PROCESSES: z.coerce.number().int().min(1).max(32).default(2),
  /** The share of one sandbox process an operator may use over time, and at once (ms): past it, its evaluations wait. */
  EXPRESSION_OPERATOR_SHARE: z.coerce.number().min(0.01).max(64).default(0.1),
  EXPRESSION_OPERATOR_BURST_MS: positiveInt.default(1_000),
  /** The share of the backtests' own sandbox process (one per worker) an organisation's backtest may use over time, and at once (ms): past it, its evaluations wait (activities/automation/backtestEvaluator.ts). */
  BACKTEST_OPERATOR_SHARE: z.coerce.number().min(0.01).max(1).default(0.25),
  BACKTEST_OPERATOR_BURST_MS: positiveInt.default(1_000),
  /** Large answers (over 64 KiB) an operator may bring into one worker per second, and at once (activities/payloadBudget.ts). */
  LARGE_PAYLOAD_BYTES_PER_SECOND: positiveInt.default(512 * 1024),
  LARGE_PAYLOAD_BURST_BYTES: positiveInt.default(4 * 1024 * 1024),
  /** Runs an operator's events may start through one worker's dispatcher per second, and at once; past it events wait in the outbox. */
  EVENT_RUNS_PER_SECOND: positiveInt.default(50),
  EVENT_RUNS_BURST: positiveInt.default(500),
  /** Live run-control keys (lanes) one automation may have; a trigger for a new key past it waits in the outbox (worker/laneKeys.ts). */
  LANE_KEYS_PER_AUTOMATION: positiveInt.max(100_000).default(500),
  /** Runs an operator's events may have started or woken and not yet finished, per worker process; past it events wait in the outbox (worker/inFlight.ts). */
  RUNS_IN_FLIGHT_PER_OPERATOR: positiveInt.max(100_000).default(50),
  /** The same for an organisation with a backlog while another has started or woken a run in the last 2 s (worker/inFlight.ts); at most RUNS_IN_FLIGHT_PER_OPERATOR. */
  RUNS_IN_FLIGHT_CONTENDED: positiveInt.max(100_000).default(2),
  /**
   * The SDK's `nonStickyToStickyPollRatio` (worker/worker.ts): the share of workflow-task polls that go to the task
   * queue, where fairness keys order tasks by organisation, rather than to the worker's sticky queue, where they wait in
   * arrival order.
   */
  WORKER_NONSTICKY_POLL_RATIO: z.coerce.number().gt(0).max(1).default(0.5),
  /**
   * Workflows one worker keeps in memory between their tasks (the SDK's `maxCachedWorkflows`, whose own default follows
   * the heap: about 2,300 on 4 GiB, under 200 on 512 MiB). Fewer make each task cheaper for the SDK's core, which goes
   * through every cached workflow, but at 500 the 500 lanes of one debounced automation and their runs evicted one
   * another and none fired (docs/workflows.md "Runs a worker keeps between tasks").
   */
  WORKER_MAX_CACHED_WORKFLOWS: positiveInt.min(2).max(100_000).default(2000),
  /**
   * Workflow tasks and local activities the waiting worker (temporal/taskQueues.ts) runs at once. Few: what it serves
   * is waited on by nobody at that moment (a quiet period ending, a place coming, a woken run's next step), and 500
   * lanes firing together at the SDK's defaults took the CPU from other organisations' runs (docs/workflows.md "What
   * waits lives apart"). At least 2 workflow tasks: the SDK needs one beside the sticky queue's.
   */
  WORKER_WAITING_WORKFLOW_TASKS: positiveInt.min(2).max(1000).default(2),
  WORKER_WAITING_LOCAL_ACTIVITIES: positiveInt.max(1000).default(4),
  /**
   * Threads the interactive worker runs workflow code on (the SDK's `workflowThreadPoolSize`; its default with a reused
   * V8 context is 1). Each run belongs to one thread, and the SDK's promise hooks make workflow code costly (a stack
   * trace for every promise), so on one thread an organisation's burst of new runs — its failures' stack traces most —
   * held every other organisation's gateway calls and MCP tools behind it: chaos scenario 6's quiet tenant took up to
   * 2 s at the noisy one's first round (docs/chaos.md).
   */
  WORKER_WORKFLOW_THREADS: positiveInt.min(1).max(16).default(2),
  /** Failed workflow task attempts in a row after which the run watchdog stops a run and records it failed (worker/runWatchdog.ts). */
  RUN_POISON_TASK_ATTEMPTS: z.coerce.number().int().min(2).max(1000).default(5),
  WORKFLOW_HTTP_TIMEOUT_MS: positiveInt.default(15_000),
  WORKFLOW_TEST_WAIT_MS: positiveInt.default(60_000),
  /** Tests only: every 2xx JSON body is checked against its endpoint's declared schema, a breach answered 500 (api/responseContract.ts). */
  CHECK_RESPONSE_BODIES: bool.default(false),
  EVENT_DISPATCH_ENABLED: bool.default(true),
  AI_BASE_URL: optionalString.pipe(z.url().optional()),
  AI_API_KEY: optionalString,
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AI_TIMEOUT_MS: positiveInt.default(60_000),
});

export type RawEnv = z.infer<typeof envSchema>;

export interface Config extends RawEnv {
  appUrl: string;
  allowedOrigins: '*' | string[];
  rateLimits: Record<RateLimitClass, RateLimitRule>;
}

/** Thrown at start-up when an environment variable is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Combinations the schema cannot see: a client certificate needs its key, TLS files contradict `TEMPORAL_TLS=false`,
 * a background-only worker needs the split queues, and the body byte burst must hold the largest body.
 */
function temporalConnectionProblems(raw: RawEnv): string[] {
  const problems: string[] = [];
  if ((raw.TEMPORAL_TLS_CERT_PATH === undefined) !== (raw.TEMPORAL_TLS_KEY_PATH === undefined))
    problems.push('TEMPORAL_TLS_CERT_PATH: the client certificate and TEMPORAL_TLS_KEY_PATH go together');
  const files = (['TEMPORAL_TLS_CA_PATH', 'TEMPORAL_TLS_CERT_PATH', 'TEMPORAL_TLS_KEY_PATH', 'TEMPORAL_TLS_SERVER_NAME'] as const).filter(
    (name) => raw[name] !== undefined,
  );
  if (raw.TEMPORAL_TLS === false && files.length > 0) problems.push(`TEMPORAL_TLS: false contradicts ${files.join(', ')}`);
  if (raw.BODY_BYTES_BURST < raw.BODY_LIMIT_BYTES)
    problems.push(
      `BODY_BYTES_BURST: ${raw.BODY_BYTES_BURST} is less than BODY_LIMIT_BYTES (${raw.BODY_LIMIT_BYTES}): a body of the largest size could never be taken`,
    );
  if (raw.WORKER_QUEUES === 'background' && !raw.TEMPORAL_SPLIT_QUEUES)
    problems.push('WORKER_QUEUES: background needs TEMPORAL_SPLIT_QUEUES (there is no background queue without the split)');
  return problems;
}

/**
 * Parses and validates configuration from an environment-like object. Pure: the caller decides
 * where the values come from, so tests can build a config without touching `process.env`.
 *
 * @example parseConfig({ PORT: '9000', DATABASE_URL: 'postgres://localhost/app' }).PORT // 9000
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const raw = result.data;
  const temporalProblems = temporalConnectionProblems(raw);
  if (temporalProblems.length > 0) throw new ConfigError(temporalProblems);
  const origins = raw.ALLOWED_ORIGINS.trim();
  const rateLimits = Object.fromEntries(
    Object.entries(RATE_LIMIT_CLASSES).map(([name, variable]) => [
      name,
      { points: raw[variable], windowSeconds: RATE_LIMIT_WINDOW_SECONDS[name as RateLimitClass] ?? 60 },
    ]),
  ) as Record<RateLimitClass, RateLimitRule>;
  return {
    ...raw,
    appUrl: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    allowedOrigins:
      origins === '*' || origins === ''
        ? '*'
        : origins
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean),
    rateLimits,
  };
}

let loaded: Config | undefined;

/** The process configuration, read from `process.env` once. The only reader of `process.env`. */
export function loadConfig(overrides: Record<string, string | undefined> = {}): Config {
  if (Object.keys(overrides).length > 0) return parseConfig({ ...process.env, ...overrides });
  loaded ??= parseConfig(process.env);
  return loaded;
}
