/**
 * `npm run mcp:doctor -- <url> [--host <id>]… [--verbose]`: replays, against a live MCP URL, the discovery and
 * authorization sequence that Claude, ChatGPT, VS Code, Cursor, Claude Code and the 2026-07-28 SDK clients perform —
 * the unauthenticated request of each revision, the 401's challenge, the protected-resource metadata where each host
 * looks, the authorization-server metadata, registration with the host's own redirect URIs, the authorization request
 * and the token endpoint — and names each host's first fault. Exits 1 when any host has one. docs/mcp.md "Connection
 * check". It registers one client per host (public, unused, so cleaned up by the server like any unused registration).
 */
import { diagnose } from './mcpDoctor/diagnose';
import { HOSTS } from './mcpDoctor/hosts';

function parseArgs(argv: string[]): { url: string; hosts?: string[]; verbose: boolean } {
  let url: string | undefined;
  const hosts: string[] = [];
  let verbose = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--verbose') verbose = true;
    else if (arg === '--host') hosts.push(argv[++index] ?? '');
    else if (!arg.startsWith('--') && url === undefined) url = arg;
    else throw new Error(`unknown option ${arg}`);
  }
  const known = HOSTS.map((host) => host.id);
  const unknown = hosts.filter((host) => !known.includes(host));
  if (!url || unknown.length > 0) {
    throw new Error(
      `usage: npm run mcp:doctor -- <https://…/mcp-server> [--host ${known.join('|')}]… [--verbose]${unknown.length ? ` (unknown host ${unknown.join(', ')})` : ''}`,
    );
  }
  new URL(url);
  return { url, ...(hosts.length ? { hosts } : {}), verbose };
}

async function main(): Promise<void> {
  const { url, hosts, verbose } = parseArgs(process.argv.slice(2));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`mcp doctor — ${url}`);
  const reports = await diagnose(url, hosts);
  for (const { host, steps, fault } of reports) {
    say(`\n${fault ? '✗' : '✓'} ${host.name}${fault ? ` — first fault: ${fault.check}` : ' — ready to connect'}`);
    for (const step of verbose || fault ? steps : []) say(`    ${step.ok ? '✓' : '✗'} ${step.check}: ${step.detail}`);
  }
  const failed = reports.filter((report) => report.fault).length;
  say(`\n${failed === 0 ? 'every host can connect' : `${failed} of ${reports.length} hosts cannot connect: fix the first fault of each`}`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error: Error) => {
  process.stderr.write(`mcp doctor: ${error.message}\n`);
  process.exitCode = 2;
});
