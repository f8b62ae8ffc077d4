import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RunContext } from '../../core/automations/expressions';
import { SandboxProcess } from '../../sandbox/sandboxProcess';
import { writeFrame } from '../../sandbox/frames';

const context: RunContext = { trigger: { amount: 5 }, nodes: {}, workflow: { id: 'wf_1', name: 'W', version: 1 }, run: { id: 'run_1', source: 'manual' } };
const condition = (expression: string) => ({ kind: 'condition' as const, expression, field: 'params.expression', context });
const SLOW = '$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)';

/** Field `n` of `/proc/<pid>/stat` (from 1, as `man proc` counts them; the command may hold spaces). */
const statOf = (pid: number, n: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[n - 3]);
/** A process's parent. */
const parentOf = (pid: number) => statOf(pid, 4);

/** The Unix socket this test process listens on for its sandbox processes. */
function socketPath(): string {
  const name = readdirSync(os.tmpdir()).find((file) => file.startsWith(`operator-platform-sandbox-${process.pid}-`) && file.endsWith('.sock'));
  if (!name) throw new Error('no sandbox socket');
  return path.join(os.tmpdir(), name);
}

/** Connects to the socket, sends `bytes`, and resolves once the other side has closed the connection. */
function closedAfter(bytes: (socket: net.Socket) => void): Promise<'closed'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath(), () => bytes(socket));
    socket.on('error', reject);
    socket.on('close', () => resolve('closed'));
    socket.resume();
  });
}

describe('the sandbox launcher: processes started away from the caller, connected back by token', () => {
  const one = new SandboxProcess(64);
  afterAll(() => one.kill());

  it('starts sandbox processes from a launcher of its own (the caller, however large, never forks)', async () => {
    const child = await one.prepare();
    const launcher = parentOf(child.pid);
    expect(launcher).not.toBe(process.pid);
    expect(parentOf(launcher)).toBe(process.pid);
    expect(await one.run(condition('trigger.amount > 1'), 500)).toEqual({ kind: 'outcome', outcome: { ok: true, value: true } });
  });

  it('closes a connection that names no process it started, or announces more than a token', async () => {
    await one.prepare();
    await expect(closedAfter((socket) => writeFrame(socket, { ready: true, token: 'not-a-token' }))).resolves.toBe('closed');
    await expect(closedAfter((socket) => socket.write(Buffer.from([0x7f, 0xff, 0xff, 0xff])))).resolves.toBe('closed');
    expect(await one.run(condition('true'), 500)).toMatchObject({ kind: 'outcome' });
  });

  it('a lost launcher is started again for the next process; the running ones keep working', async () => {
    const child = await one.prepare();
    process.kill(parentOf(child.pid), 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await one.run(condition('true'), 500)).toMatchObject({ kind: 'outcome' });
    expect((await one.run(condition(SLOW), 100)).kind).toBe('timeout');
    const next = await one.prepare();
    expect(next.pid).not.toBe(child.pid);
    expect(parentOf(parentOf(next.pid))).toBe(process.pid);
    expect(await one.run(condition('true'), 500)).toMatchObject({ kind: 'outcome', outcome: { ok: true, value: true } });
  });
});
