/**
 * The sandbox launcher: a small process that starts sandbox processes for its parent, the worker. Starting a process
 * copies the starter's page tables (libuv forks on Linux), 10–200 ms on the thread of a worker holding hundreds of
 * megabytes, where every tenant's work waits; here it takes a millisecond or two, on a thread nobody waits on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { LaunchReply, LaunchRequest } from './launchMessages';

const children = new Set<ChildProcess>();
const reply = (message: LaunchReply) => process.send?.(message);

process.on('message', (request: LaunchRequest) => {
  const child = spawn(process.execPath, [...request.execArgv, request.script], { cwd: request.cwd, env: request.env, stdio: 'ignore' });
  children.add(child);
  child.once('spawn', () => reply({ id: request.id, pid: child.pid! }));
  child.once('error', (error) => reply({ id: request.id, error: error.message }));
  child.once('exit', () => {
    children.delete(child);
    if (child.pid !== undefined) reply({ exited: child.pid });
  });
});
process.on('disconnect', () => {
  for (const child of children) child.kill('SIGKILL');
  process.exit(0);
});
reply({ ready: true });
