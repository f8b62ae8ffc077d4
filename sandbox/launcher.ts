import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { entryScript } from './entryScript';
import { FrameReader, writeFrame } from './frames';
import type { LaunchReply, LaunchRequest } from './launchMessages';
import type { ParentMessage, SandboxMessage } from './tasks';

/** The most a connection may send before it has named itself: its token, a few dozen bytes. */
const HELLO_MAX_BYTES = 1_024;

/**
 * A sandbox process, as its parent sees it: messages framed over its socket (`frames.ts`); `exit` once the socket
 * closes, which it does when the process ends or is killed.
 */
export class SandboxChild extends EventEmitter<{ message: [SandboxMessage]; exit: [] }> {
  private exited = false;

  constructor(
    readonly pid: number,
    private readonly socket: net.Socket,
  ) {
    super();
    const reader = new FrameReader((message) => this.emit('message', message as SandboxMessage));
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch {
        this.kill();
      }
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.exited = true;
      this.emit('exit');
    });
    socket.resume();
  }

  /** Throws when the message cannot be serialized (nested past what the serializer's stack takes). */
  send(message: ParentMessage): void {
    writeFrame(this.socket, message);
  }

  /** Only while its socket is open: once it has closed, the process is gone and its pid may be another's. */
  kill(): void {
    if (this.exited) return;
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    this.socket.destroy();
  }

  ref(): void {
    this.socket.ref();
  }

  unref(): void {
    this.socket.unref();
  }
}

interface Connecting {
  resolve(socket: net.Socket): void;
  reject(error: Error): void;
}

/**
 * Starts sandbox processes from a launcher process of its own (`launcherProcess.ts`), so this process's thread never
 * forks: libuv copies the page tables of the process that starts a child, tens of milliseconds for a worker of
 * hundreds of megabytes, on the thread every tenant's work waits on — and a tenant's runaway expressions each cost one
 * restart. Each sandbox process connects back to a Unix socket this process listens on (readable by its user alone)
 * and names itself with a one-time token from its environment; a connection without a known token is closed.
 */
export class SandboxLauncher {
  private launcher: Promise<ChildProcess> | null = null;
  private listening: Promise<string> | null = null;
  private nextId = 1;
  private readonly spawning = new Map<number, { resolve(pid: number): void; reject(error: Error): void }>();
  private readonly connecting = new Map<string, Connecting>();
  /** Started processes not yet connected, by pid: their token, so an early exit fails their start. */
  private readonly unconnected = new Map<number, string>();

  /** A new sandbox process (`expressionProcess.ts`), once it has connected; killed and rejected past `deadlineMs`. */
  async start(execArgv: string[], deadlineMs: number): Promise<SandboxChild> {
    const token = randomBytes(16).toString('hex');
    let pid: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const connected = new Promise<net.Socket>((resolve, reject) => this.connecting.set(token, { resolve, reject }));
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the sandbox process did not connect in time')), deadlineMs);
    });
    connected.catch(() => undefined);
    deadline.catch(() => undefined);
    try {
      const socketPath = await Promise.race([this.listen(), deadline]);
      const launcher = await Promise.race([this.launcherProcess(), deadline]);
      pid = await Promise.race([this.spawn(launcher, token, socketPath, execArgv), deadline]);
      this.unconnected.set(pid, token);
      const socket = await Promise.race([connected, deadline]);
      return new SandboxChild(pid, socket);
    } catch (error) {
      if (pid !== undefined && this.unconnected.has(pid)) killQuietly(pid);
      throw error;
    } finally {
      clearTimeout(timer);
      this.connecting.delete(token);
      if (pid !== undefined) this.unconnected.delete(pid);
    }
  }

  private spawn(launcher: ChildProcess, token: string, socketPath: string, execArgv: string[]): Promise<number> {
    const id = this.nextId++;
    const request: LaunchRequest = {
      id,
      script: entryScript('expressionProcess'),
      execArgv,
      cwd: path.resolve(__dirname, '..'),
      env: { NODE_ENV: process.env.NODE_ENV ?? 'production', SANDBOX_SOCKET: socketPath, SANDBOX_TOKEN: token },
    };
    return new Promise<number>((resolve, reject) => {
      this.spawning.set(id, { resolve, reject });
      launcher.send(request, (error) => {
        if (!error) return;
        this.spawning.delete(id);
        reject(error);
      });
    });
  }

  private listen(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const socketPath = path.join(os.tmpdir(), `operator-platform-sandbox-${process.pid}-${randomBytes(6).toString('hex')}.sock`);
      const server = net.createServer((socket) => this.accept(socket));
      server.once('error', (error) => {
        this.listening = null;
        reject(error);
      });
      server.listen(socketPath, () => {
        chmodSync(socketPath, 0o600);
        server.unref();
        process.once('exit', () => rmSync(socketPath, { force: true }));
        resolve(socketPath);
      });
    });
    return this.listening;
  }

  /** A new connection gives its token first; the socket then waits, paused, for its {@link SandboxChild}. */
  private accept(socket: net.Socket): void {
    socket.on('error', () => undefined);
    const reader = new FrameReader((message) => {
      socket.off('data', onData);
      socket.pause();
      const token = (message as { token?: unknown }).token;
      const waiting = typeof token === 'string' ? this.connecting.get(token) : undefined;
      if (!waiting) return void socket.destroy();
      this.connecting.delete(token as string);
      waiting.resolve(socket);
    }, HELLO_MAX_BYTES);
    const onData = (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch {
        socket.destroy();
      }
    };
    socket.on('data', onData);
  }

  private launcherProcess(): Promise<ChildProcess> {
    if (this.launcher) return this.launcher;
    const child = fork(entryScript('launcherProcess'), [], {
      cwd: path.resolve(__dirname, '..'),
      env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      child.on('message', (reply: LaunchReply) => {
        if ('ready' in reply) return resolve(child);
        if ('exited' in reply) return this.endedUnconnected(reply.exited);
        const waiting = this.spawning.get(reply.id);
        this.spawning.delete(reply.id);
        if ('pid' in reply) waiting?.resolve(reply.pid);
        else waiting?.reject(new Error(`the sandbox process could not be started: ${reply.error}`));
      });
      child.once('exit', (code, signal) => {
        if (this.launcher === ready) this.launcher = null;
        const error = new Error(`the sandbox launcher ended (${signal ?? code})`);
        reject(error);
        for (const waiting of this.spawning.values()) waiting.reject(error);
        this.spawning.clear();
      });
    });
    ready.catch(() => undefined);
    child.unref();
    child.channel?.unref();
    this.launcher = ready;
    return ready;
  }

  private endedUnconnected(pid: number): void {
    const token = this.unconnected.get(pid);
    this.unconnected.delete(pid);
    if (token) this.connecting.get(token)?.reject(new Error('the sandbox process ended before it was ready'));
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

let shared: SandboxLauncher | undefined;

/** The process's one launcher: its sandboxes share it and its socket. */
export const sandboxLauncher = (): SandboxLauncher => (shared ??= new SandboxLauncher());
