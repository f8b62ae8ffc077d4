import { ConfigError, RATE_LIMIT_CLASSES, parseConfig, type RateLimitClass } from '../../core/config';

/** Runs parseConfig and returns the ConfigError it throws (fails the test if it does not throw one). */
function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected parseConfig to throw ConfigError');
}

describe('parseConfig defaults', () => {
  const config = parseConfig({});

  it('uses the documented server defaults', () => {
    expect(config.PORT).toBe(8080);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.NODE_ENV).toBe('development');
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('uses the documented Temporal, body and token defaults', () => {
    expect(config.TEMPORAL_TASK_QUEUE).toBe('operator-platform');
    expect(config.TEMPORAL_NAMESPACE).toBe('default');
    expect(config.BODY_LIMIT_BYTES).toBe(10 * 1024 * 1024);
    expect(config.JWT_ACCESS_TTL_SECONDS).toBe(3600);
    expect(config.JWT_SECRET).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.WORKER_NONSTICKY_POLL_RATIO).toBe(0.5);
    expect(config.WORKER_MAX_CACHED_WORKFLOWS).toBe(2000);
    expect([config.WORKER_WAITING_WORKFLOW_TASKS, config.WORKER_WAITING_LOCAL_ACTIVITIES]).toEqual([2, 4]);
    expect(config.WORKER_WORKFLOW_THREADS).toBe(2);
  });

  it('allows every origin by default', () => {
    expect(config.allowedOrigins).toBe('*');
  });

  it('has a rate limit for every class in RATE_LIMIT_CLASSES: per minute, invites sent per hour', () => {
    const classes = Object.keys(RATE_LIMIT_CLASSES).sort();
    expect(Object.keys(config.rateLimits).sort()).toEqual(classes);
    for (const name of classes as RateLimitClass[]) {
      const { points } = config.rateLimits[name];
      expect(Number.isInteger(points)).toBe(true);
      expect(points).toBeGreaterThan(0);
      expect(points).toBe(config[RATE_LIMIT_CLASSES[name]]);
    }
    const minute = (points: number) => ({ points, windowSeconds: 60 });
    expect(config.rateLimits).toEqual({
      'ingest:realtime': minute(60000),
      'ingest:batch': minute(120),
      'gateway:execute': minute(6000),
      'analytics:read': minute(200),
      'analytics:export': minute(5),
      'analytics:refresh': minute(1),
      mcp: minute(600),
      'runs:start': minute(600),
      'expressions:preview': minute(300),
      auth: minute(60),
      'invites:operator': { points: 20, windowSeconds: 3600 },
      'invites:member': { points: 10, windowSeconds: 3600 },
      'invites:public': minute(30),
      oauth: minute(120),
      'oauth:register': { points: 30, windowSeconds: 3600 },
    });
  });

  it('maps each RATE_LIMIT_* variable onto its class', () => {
    const env = Object.fromEntries(Object.values(RATE_LIMIT_CLASSES).map((variable, index) => [variable, String(1000 + index)]));
    const limits = parseConfig(env).rateLimits;
    Object.entries(RATE_LIMIT_CLASSES).forEach(([name, _variable], index) => {
      expect(limits[name as RateLimitClass].points).toBe(1000 + index);
    });
  });
});

describe('parseConfig values', () => {
  it('coerces numeric and boolean strings', () => {
    const config = parseConfig({ PORT: '9000', TRUST_PROXY: '1', BODY_LIMIT_BYTES: '1024' });
    expect(config.PORT).toBe(9000);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.BODY_LIMIT_BYTES).toBe(1024);
    expect(parseConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('treats a blank variable as unset, so its default applies', () => {
    expect(parseConfig({ PORT: '', LOG_LEVEL: '  ' })).toMatchObject({ PORT: 8080, LOG_LEVEL: 'info' });
  });

  it("treats ALLOWED_ORIGINS '*' (and blank) as any origin", () => {
    expect(parseConfig({ ALLOWED_ORIGINS: '*' }).allowedOrigins).toBe('*');
    expect(parseConfig({ ALLOWED_ORIGINS: '  *  ' }).allowedOrigins).toBe('*');
    expect(parseConfig({ ALLOWED_ORIGINS: '' }).allowedOrigins).toBe('*');
  });

  it('splits a comma-separated ALLOWED_ORIGINS list, trimming and dropping empty entries', () => {
    expect(parseConfig({ ALLOWED_ORIGINS: 'https://a.example' }).allowedOrigins).toEqual(['https://a.example']);
    expect(parseConfig({ ALLOWED_ORIGINS: ' https://a.example , http://localhost:3000,,https://b.example ' }).allowedOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
      'https://b.example',
    ]);
  });

  it('defaults appUrl to localhost on the configured PORT', () => {
    expect(parseConfig({}).appUrl).toBe('http://localhost:8080');
    expect(parseConfig({ PORT: '9001' }).appUrl).toBe('http://localhost:9001');
  });

  it('trims trailing slashes from APP_URL', () => {
    expect(parseConfig({ APP_URL: 'https://app.example.com/' }).appUrl).toBe('https://app.example.com');
    expect(parseConfig({ APP_URL: 'https://app.example.com/base///' }).appUrl).toBe('https://app.example.com/base');
    expect(parseConfig({ APP_URL: 'https://app.example.com' }).appUrl).toBe('https://app.example.com');
  });

  it('treats an empty or blank DATABASE_URL as unset', () => {
    expect(parseConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    expect(parseConfig({ DATABASE_URL: '   ' }).DATABASE_URL).toBeUndefined();
    expect(parseConfig({ DATABASE_URL: 'postgres://u:p@localhost:5432/app' }).DATABASE_URL).toBe('postgres://u:p@localhost:5432/app');
  });

  it('treats an empty JWT_SECRET as unset and accepts one of 32+ characters', () => {
    expect(parseConfig({ JWT_SECRET: '' }).JWT_SECRET).toBeUndefined();
    const secret = 'x'.repeat(32);
    expect(parseConfig({ JWT_SECRET: secret }).JWT_SECRET).toBe(secret);
  });
});

describe('parseConfig errors', () => {
  it('throws a ConfigError naming every bad variable', () => {
    const error = configErrorOf({ PORT: 'abc', DATABASE_URL: 'not-a-url' });
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DATABASE_URL');
    expect(error.problems).toHaveLength(2);
    expect(error.problems.some((problem) => problem.startsWith('PORT:'))).toBe(true);
    expect(error.problems.some((problem) => problem.startsWith('DATABASE_URL:'))).toBe(true);
  });

  it('has the documented byte and backtest budgets, and refuses a body byte burst smaller than the body limit', () => {
    const config = parseConfig({});
    expect([config.BODY_BYTES_PER_SECOND, config.BODY_BYTES_BURST]).toEqual([2 * 1024 * 1024, 20 * 1024 * 1024]);
    expect([config.BACKTEST_OPERATOR_SHARE, config.BACKTEST_OPERATOR_BURST_MS]).toEqual([0.25, 1000]);
    expect(configErrorOf({ BODY_BYTES_BURST: String(1024 * 1024) }).problems).toEqual([
      'BODY_BYTES_BURST: 1048576 is less than BODY_LIMIT_BYTES (10485760): a body of the largest size could never be taken',
    ]);
    expect(parseConfig({ BODY_BYTES_BURST: String(1024 * 1024), BODY_LIMIT_BYTES: String(1024 * 1024) }).BODY_BYTES_BURST).toBe(1024 * 1024);
  });

  it('rejects a JWT_SECRET shorter than 32 characters', () => {
    const error = configErrorOf({ JWT_SECRET: 'x'.repeat(31) });
    expect(error.message).toContain('JWT_SECRET');
    expect(error.message).toContain('at least 32 characters');
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['NODE_ENV', 'staging'],
    ['TRUST_PROXY', 'yes'],
    ['APP_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['BODY_LIMIT_BYTES', '0'],
    ['RATE_LIMIT_AUTH', '-5'],
  ])('rejects %s=%j', (variable, value) => {
    expect(configErrorOf({ [variable]: value }).message).toContain(variable);
  });
});
