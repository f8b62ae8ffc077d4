import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a sample's code lives: an npm package, one of our folders, or V8 itself. */
function ownerOf(frame: ProfileNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
  if (pkg) return pkg;
  if (frame.url.startsWith('node:')) return `node:${frame.url.slice(5).split('/')[0]}`;
  const ours = /\/(api|core|db|temporal|activities|workflows|worker|services|bench)\/([^/]+)$/.exec(frame.url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
}

/** The main thread's busy time by owner, idle excluded: `{ total, top: [[owner, ms], …] }`. */
export function summarizeProfile(profile: CpuProfile, topN = 8): { busyMs: number; top: Array<[string, number]> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** The profiler's own start and stop run through `inspector.post`; they are not the work being measured. */
  const isProfiler = (id: number) => byId.get(parentOf.get(id) ?? -1)?.callFrame.url === 'node:inspector';
  const totals = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    const micros = profile.timeDeltas[index] ?? 0;
    if (!frame || frame.functionName === '(idle)' || isProfiler(id)) return;
    busy += micros;
    const owner = ownerOf(frame);
    totals.set(owner, (totals.get(owner) ?? 0) + micros);
  });
  const top = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([owner, micros]): [string, number] => [owner, micros / 1000]);
  return { busyMs: busy / 1000, top };
}

/**
 * Profiles this process's main thread (V8's sampling profiler through the inspector) until `stop`, which
 * writes the `.cpuprofile` (open it in Chrome DevTools) under `dir` and returns a one-line summary per
 * `operations`: where the busy time per operation goes.
 *
 * @example const profiling = await startProfile(); …; say(await profiling.stop('ingest-api', 12000))
 */
export async function startProfile(dir = path.resolve('.data/profiles'), topN = 8): Promise<{ stop(name: string, operations: number): Promise<string> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(name, operations) {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      const { busyMs, top } = summarizeProfile(profile, topN);
      const parts = top.map(([owner, ms]) => `${owner} ${(ms / operations).toFixed(3)}`).join(', ');
      return `main-thread CPU per operation ${(busyMs / operations).toFixed(2)} ms: ${parts} (ms; ${path.relative(process.cwd(), file)})`;
    },
  };
}
