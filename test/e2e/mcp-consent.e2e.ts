import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { startOAuthApp, TestOAuthProvider } from '../helpers/mcpOAuth';
import { launchBrowser, newPage } from './browser';
import { checkPage } from './steps';

/**
 * An MCP host connects with a URL alone: the official SDK v1 client meets the 401, discovers the authorization server,
 * registers, and sends the member's browser to authorize; headless Chromium signs in, reads the real consent page
 * (host, redirect host, scopes, tools), approves, and lands on the host's loopback callback with code, state and iss;
 * the Owner then finds the host under API keys with its last use and disconnects it.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let callback: Server;
let callbackUrl = '';
const landed: URL[] = [];
let toolName = '';

beforeAll(async () => {
  app = await startOAuthApp();
  owner = await signupOperator(app.url, 'Consenting Casino');
  toolName = (await createWorkflow(app.url, owner.accessToken, toolAutomation('Player lookup', []))).mcp_tool_name;
  callback = createServer((request, response) => {
    landed.push(new URL(request.url ?? '/', callbackUrl));
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Connected</title><h1>You can close this tab</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
  ({ page } = await newPage(browser, app.url, { viewport: { width: 1280, height: 900 } }));
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callback?.close(resolve));
  await app?.close();
});

it('the member signs in, sees the host and its tools on the consent page, approves, and the host connects', async () => {
  const host = new TestOAuthProvider({ name: 'Claude (test)', redirectUrl: callbackUrl });
  const first = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host });
  await expect(new Client({ name: 'claude-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

  await page.goto(host.authorizationUrl!.toString());
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Connect Claude (test)' }).waitFor();
  expect(await page.getByText(new URL(callbackUrl).host).count()).toBeGreaterThan(0);
  expect(await page.getByRole('list', { name: 'Requested access' }).getByRole('listitem').allTextContents()).toEqual([
    'List the tools and run those that only read',
    'Run tools with real effects (they write, send or call suppliers)',
  ]);
  expect(await page.getByRole('list', { name: 'Tools' }).textContent()).toContain(toolName);
  await checkPage(page, 'mcp-consent');

  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'You can close this tab' }).waitFor();
  const back = landed.find((url) => url.pathname === '/callback')!;
  expect(back.searchParams.get('iss')).toBe(app.url);
  expect(back.searchParams.get('state')).toBe(host.authorizationUrl!.searchParams.get('state'));

  await first.finishAuth(back.searchParams.get('code')!);
  const client = new Client({ name: 'claude-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host }));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([toolName]);
  expect((await client.callTool({ name: toolName, arguments: { playerId: 'p-9' } })).isError).toBeFalsy();

  // The Owner finds the host under API keys with its last use, and disconnects it: the host's token stops working.
  await page.goto('/keys');
  const row = page.getByRole('row', { name: /Claude \(test\)/ });
  await row.waitFor();
  expect(await row.getByRole('cell').nth(1).textContent()).toBe('Read and write tools');
  expect(await row.getByRole('cell').nth(3).textContent()).not.toBe('Never');
  await checkPage(page, 'mcp-connected-hosts');
  const membersWrite = page.getByLabel('Members (not only Owners and Admins) may approve tools with real effects');
  const reread = page.waitForResponse((response) => response.url().endsWith('/oauth/settings') && response.request().method() === 'GET');
  await membersWrite.click();
  await reread;
  await page.getByLabel('Members (not only Owners and Admins) may approve tools with real effects', { exact: true }).and(page.locator(':checked')).waitFor();
  expect((await app.deps.db('mcp_oauth_settings').where({ operator_id: owner.operatorId }).first()).members_may_write).toBe(true);
  await row.getByRole('button', { name: 'Disconnect Claude (test)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await row.getByText('revoked').waitFor();
  const refused = await fetch(`${app.url}/mcp-server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.saved!.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(refused.status).toBe(401);
  await client.close();
});
