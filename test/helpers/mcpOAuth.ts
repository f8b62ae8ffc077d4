import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startTestApp, type TestApp } from './app';
import { http } from './http';

/** A free loopback port, so the app's APP_URL (its issuer and resource) is known before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The real API at `http://127.0.0.1:<port>` with `APP_URL` naming it, fetching metadata documents from loopback. The
 * OAuth rate limits count per client address in the shared database, and every test file calls from 127.0.0.1: they
 * are raised here, and the test of the limit itself calls from an address of its own (`X-Forwarded-For`).
 */
export async function startOAuthApp(overrides: Record<string, string> = {}, options: { logLines?: string[] } = {}): Promise<TestApp> {
  const port = await freePort();
  return startTestApp(
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_OAUTH: '100000',
      RATE_LIMIT_OAUTH_REGISTER: '100000',
      ...overrides,
    },
    options,
  );
}

/**
 * The OAuthClientProvider a host implements, kept in memory: `redirectToAuthorization` only records the URL; the test
 * then plays the member (`approve`), and hands the code to the transport's `finishAuth`.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  readonly redirects: URL[] = [];

  constructor(readonly options: { name: string; redirectUrl?: string; clientMetadataUrl?: string; scope?: string } = { name: 'Test host' }) {}

  get redirectUrl(): string {
    return this.options.redirectUrl ?? 'http://127.0.0.1:33418/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    return 'st-' + Math.random().toString(36).slice(2);
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
    this.redirects.push(url);
  }

  /** SDK v2 (SEP-2352): the discovery kept with the verifier, so the callback's `iss` is checked against it. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/** Follows the authorization URL to the consent page's request id, as the member's browser would. */
export async function consentRequestOf(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  const request = new URL(location).searchParams.get('request');
  if (!request) throw new Error(`authorize redirected to ${location}`);
  return request;
}

/** The member's decision through the API the consent page uses; returns the parsed redirect back to the host. */
export async function decide(
  app: TestApp,
  sessionToken: string,
  requestId: string,
  body: { decision: 'approve' | 'deny'; scopes?: string[] } = { decision: 'approve' },
): Promise<{ status: number; redirect: URL | undefined; body: unknown }> {
  const response = await http(`${app.url}/oauth/requests/${requestId}/decision`, { token: sessionToken, body });
  return { status: response.status, redirect: response.body?.redirect_to ? new URL(response.body.redirect_to) : undefined, body: response.body };
}

/** The whole member side: authorize → consent → approve; returns where the browser lands back at the host. */
export async function approvedRedirect(app: TestApp, sessionToken: string, authorizationUrl: URL, scopes?: string[]): Promise<URL> {
  const requestId = await consentRequestOf(authorizationUrl);
  const { status, redirect, body } = await decide(app, sessionToken, requestId, { decision: 'approve', ...(scopes ? { scopes } : {}) });
  if (status !== 200 || !redirect) throw new Error(`decision answered ${status}: ${JSON.stringify(body)}`);
  return redirect;
}

/** As `approvedRedirect`, returning the code after checking `state` and `iss` (RFC 9207) as a host must. */
export async function approveAs(app: TestApp, sessionToken: string, authorizationUrl: URL, scopes?: string[]): Promise<string> {
  const redirect = await approvedRedirect(app, sessionToken, authorizationUrl, scopes);
  if (redirect.searchParams.get('iss') !== app.deps.config.appUrl) throw new Error(`iss is ${redirect.searchParams.get('iss')}`);
  if (redirect.searchParams.get('state') !== authorizationUrl.searchParams.get('state')) throw new Error('state not echoed');
  return redirect.searchParams.get('code')!;
}

/** An HTTPS server on 127.0.0.1 serving one Client ID Metadata Document, with a throw-away CA the app is told to trust. */
export async function startMetadataServer(
  document: (url: string) => unknown,
): Promise<{ url: string; caFile: string; hits: () => number; close: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cimd-'));
  const run = promisify(execFile);
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { cwd: dir },
  );
  const [key, cert] = await Promise.all([readFile(path.join(dir, 'key.pem')), readFile(path.join(dir, 'cert.pem'))]);
  let hits = 0;
  let url = '';
  const server = https.createServer({ key, cert }, (request, response) => {
    hits += 1;
    if (request.url !== '/oauth/client.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(JSON.stringify(document(url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`;
  return { url, caFile: path.join(dir, 'cert.pem'), hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
