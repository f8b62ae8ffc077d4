/** What one fuzz run may spend. */
export interface FuzzOptions {
  /** Test cases to aim for across all operations (spread as Schemathesis' per-operation `--max-examples`). */
  cases: number;
  /** Wall-clock budget of the Schemathesis run, in seconds. */
  maxTimeSeconds: number;
  seed?: number;
  workers: number;
}

export const DEFAULT_OPTIONS: FuzzOptions = { cases: 2000, maxTimeSeconds: 900, workers: 2 };

const USAGE = 'usage: npm run fuzz -- [--cases N] [--max-time SECONDS] [--seed N] [--workers N]';

function positive(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!value || !Number.isInteger(number) || number < 1) throw new Error(`${name} needs a positive whole number\n${USAGE}`);
  return number;
}

/**
 * Command-line flags of `npm run fuzz` (flags rather than environment variables: core/config.ts is
 * the one reader of the environment, and these only shape a developer's run).
 *
 * @example parseFuzzArgs(['--cases', '300', '--max-time', '240']) // { cases: 300, maxTimeSeconds: 240, workers: 2 }
 */
export function parseFuzzArgs(argv: string[]): FuzzOptions {
  const options: FuzzOptions = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--cases') options.cases = positive(flag, value);
    else if (flag === '--max-time') options.maxTimeSeconds = positive(flag, value);
    else if (flag === '--seed') options.seed = positive(flag, value);
    else if (flag === '--workers') options.workers = Math.min(positive(flag, value), 16);
    else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  return options;
}
