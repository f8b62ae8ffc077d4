import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second (`getconf CLK_TCK`), 100 on every kernel we run on. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime in ms: the process and its reaped children. */
  cpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
    return { pid, ppid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
}

/** CPU time (ms) of a process and every live descendant; reaped children count through the parent's c-times. */
export function treeCpuMs(rootPid: number): number {
  const processes = allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const stat of processes) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let total = 0;
  const stack = processes.filter((stat) => stat.pid === rootPid);
  while (stack.length > 0) {
    const stat = stack.pop()!;
    total += stat.cpuMs;
    stack.push(...(children.get(stat.pid) ?? []));
  }
  return total;
}

/** utime + stime in ms from a `/proc/…/stat` line: a process's own (its threads included) or one thread's. */
function ownMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / TICKS_PER_SECOND;
}

/** CPU time (ms) of one process alone, its threads included. */
export function ownCpuMs(pid: number): number {
  try {
    return ownMsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** CPU time (ms) of those threads of a process whose name (`/proc/<pid>/task/<tid>/comm`, 15 characters at most) starts with `prefix`. */
export function threadsCpuMs(pid: number, prefix: string): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith(prefix)) total += ownMsOf(stat);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

/** The pid of the process whose command line contains `needle` (e.g. the PostgreSQL data directory). */
export function pidOf(needle: string): number | undefined {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle) && Number(name) !== process.pid) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

export interface CpuMeter {
  /** CPU ms per operation of each named process tree since `start`, for `operations` operations. */
  perOperation(operations: number): Record<string, number>;
}

/**
 * Samples the CPU time of named processes around a phase, so a benchmark can say where the time goes: a
 * whole tree (PostgreSQL and its backends), one process alone (the API, without the load generator it
 * spawned), or the threads of a process whose name starts with `threads` (the Temporal SDK core's `workflow-processing`).
 *
 * @example const meter = cpuMeter({ api: { pid: process.pid, tree: false }, postgres: { pid: stack.pids.postgres, tree: true } }); …; meter.perOperation(4000)
 */
export function cpuMeter(processes: Record<string, { pid: number | undefined; tree: boolean; threads?: string }>): CpuMeter {
  const pids = Object.fromEntries(Object.entries(processes).map(([name, entry]) => [name, entry.pid]));
  const read = (name: string, pid: number | undefined) => {
    const entry = processes[name];
    if (pid === undefined || !entry) return NaN;
    if (entry.threads !== undefined) return threadsCpuMs(pid, entry.threads);
    return entry.tree ? treeCpuMs(pid) : ownCpuMs(pid);
  };
  const sample = () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, read(name, pid)]));
  const before = sample();
  return {
    perOperation(operations) {
      const after = sample();
      return Object.fromEntries(Object.keys(pids).map((name) => [name, ((after[name] ?? NaN) - (before[name] ?? NaN)) / operations]));
    },
  };
}

/** `node 0.91 ms, postgres 0.42 ms, temporal 0.00 ms` */
export const formatCpu = (perOperation: Record<string, number>) =>
  Object.entries(perOperation)
    .filter(([, ms]) => Number.isFinite(ms))
    .map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`)
    .join(', ');

/**
 * Resolves once the named processes together use less than `belowCores` cores over a `windowMs` window, or after
 * `maxMs`: so a phase measured after a heavy setup (2,000 runs started and registered) begins once the stack has
 * worked through that setup's tail, not in it. Thread entries are skipped (their process counts them already).
 * Answers how long it waited and the last window's use, for the caller to print.
 */
export async function quietDown(
  processes: Record<string, { pid: number | undefined; tree: boolean; threads?: string }>,
  options: { belowCores: number; windowMs: number; maxMs: number },
): Promise<{ waitedMs: number; cores: number }> {
  const whole = Object.fromEntries(Object.entries(processes).filter(([, entry]) => entry.threads === undefined));
  const start = Date.now();
  for (;;) {
    const meter = cpuMeter(whole);
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    const used = Object.values(meter.perOperation(1)).filter(Number.isFinite);
    const cores = used.reduce((sum, ms) => sum + ms, 0) / options.windowMs;
    const waitedMs = Date.now() - start;
    if (cores < options.belowCores || waitedMs >= options.maxMs) return { waitedMs, cores };
  }
}
