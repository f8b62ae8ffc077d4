import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from '../../../devstack/freePort';
import { post } from '../../stack/stackClient';
import type { ConformanceTools } from './install';

export interface AuthorizationRun {
  /** The platform's issuer (`APP_URL`). */
  issuer: string;
  /** A signed-in Owner's session token: the member who approves the suite's authorization request. */
  sessionToken: string;
  /** Where the suite writes its checks. */
  dir: string;
  timeoutMs: number;
  say: (line: string) => void;
}

/**
 * Stands in for the member at the consent page: follows the suite's authorization URL to the consent request and
 * approves it through the API the page uses, then opens the redirect back to the suite's callback server.
 */
async function approve(issuer: string, sessionToken: string, authorizationUrl: string): Promise<void> {
  const asked = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = asked.headers.get('location');
  const request = location ? new URL(location).searchParams.get('request') : null;
  if (!request) throw new Error(`authorize answered ${asked.status} ${location ?? (await asked.text()).slice(0, 200)}`);
  const decided = await post(issuer, `/oauth/requests/${request}/decision`, { decision: 'approve' }, sessionToken);
  const back = await fetch(decided.redirect_to as string);
  await back.text();
}

/**
 * The suite's authorization-server scenarios (`conformance authorization`: the metadata endpoint, and an authorization
 * code grant with PKCE and the `resource` of the MCP server) against the platform's issuer, with a public client
 * registered by Dynamic Client Registration for the suite's loopback callback. The suite prints the authorization URL
 * for a person to open; this approves it as the Owner would on the consent page. Resolves with the suite's exit code.
 */
export async function runAuthorizationSuite(tools: ConformanceTools, options: AuthorizationRun): Promise<number> {
  const port = await freePort();
  const registered = await post(options.issuer, '/oauth/register', {
    client_name: 'MCP conformance suite',
    redirect_uris: [`http://127.0.0.1:${port}/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  const args = [tools.cli, 'authorization', '--url', options.issuer, '--client-id', registered.client_id as string];
  args.push('--resource', `${options.issuer}/mcp-server`, '--port', String(port), '-o', options.dir);
  const child = spawn(tools.node, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const approvals: Array<Promise<void>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    options.say(line);
    const url = /^(https?:\/\/\S+\/oauth\/authorize\?\S+)$/.exec(line.trim())?.[1];
    if (url) {
      approvals.push(
        approve(options.issuer, options.sessionToken, url).catch((error: Error) =>
          options.say(`conformance: approving the suite's request failed: ${error.message}`),
        ),
      );
    }
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
  clearTimeout(timer);
  await Promise.all(approvals);
  return code;
}
