import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { authorised, startProvider, type ProviderAuth, type TestProvider } from '../helpers/providerServer';
import { kycDocument } from '../helpers/suppliers';
import { checkPage, openFromNav, signedInBrowser } from './steps';

/**
 * The supplier gateway set up from the dashboard: a connector from an uploaded OpenAPI document (a
 * broken one is refused with the parser's words), a connection with write-only credentials, and a call
 * through `/gateway` to a real loopback supplier, in canonical field names both ways.
 */
const AUTH: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'kyc-secret-4242' };
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let supplier: TestProvider;

beforeAll(async () => {
  supplier = await startProvider((request) => {
    if (!authorised(request, AUTH)) return { status: 401, body: { error: 'unauthorised' } };
    const ref = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path)?.[1];
    return ref ? { status: 200, body: { player_ref: ref, kyc_state: 'approved' } } : { status: 404, body: { error: 'no route' } };
  });
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Gateway Casino');
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await supplier?.close();
});

describe('connections', () => {
  it("refuses a broken document with the parser's problem, then adds a connector from an uploaded file", async () => {
    await openFromNav(page, 'Connections');
    await page.getByRole('heading', { name: 'No connectors yet' }).waitFor();
    await checkPage(page, 'connections-empty');
    await page.getByRole('button', { name: 'Add a connector' }).click();
    const form = page.getByRole('form', { name: 'New connector' });
    await form.getByLabel('Name', { exact: true }).fill('VeriKYC');
    await form.getByLabel('Provider').fill('verikyc');
    await form.getByLabel('Or paste the document').fill('openapi: 3.0.3\ninfo: {title: Broken}\npaths: {}\n');
    await form.getByRole('button', { name: 'Save connector' }).click();
    await form.getByText('INVALID_OPENAPI').waitFor();
    await checkPage(page, 'connector-refused');

    await form
      .getByLabel('OpenAPI or Swagger document (JSON or YAML)')
      .setInputFiles({ name: 'verikyc.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(kycDocument(supplier.url, AUTH))) });
    const pasted = form.getByLabel('Or paste the document');
    for (let tries = 0; tries < 50 && !(await pasted.inputValue()).includes('VeriKYC'); tries += 1) await page.waitForTimeout(100);
    expect(await pasted.inputValue()).toContain('"title":"VeriKYC"');
    await form.getByRole('button', { name: 'Add your field' }).click();
    await form.getByLabel('Your field 1').fill('playerId');
    await form.getByLabel("Supplier's field 1").fill('player_ref');
    await form.getByRole('button', { name: 'Add your field' }).click();
    await form.getByLabel('Your field 2').fill('status');
    await form.getByLabel("Supplier's field 2").fill('kyc_state');
    await form.getByRole('button', { name: 'Save connector' }).click();
    const row = page.getByRole('row', { name: /VeriKYC/ });
    await row.getByRole('cell', { name: 'OpenAPI' }).waitFor();
    expect(await row.getByRole('cell', { name: '4', exact: true }).count()).toBe(1);
    await row.getByRole('button', { name: 'Details of VeriKYC' }).click();
    const details = page.getByRole('dialog', { name: 'VeriKYC (verikyc)' });
    await details.getByRole('cell', { name: 'getKycStatus' }).waitFor();
    await checkPage(page, 'connector-details');
    await details.getByRole('button', { name: 'Close' }).click();
  });

  it('adds a connection whose credentials are stored encrypted and never shown', async () => {
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Name', { exact: true }).fill('KYC live');
    await form.getByLabel('API key', { exact: true }).fill(AUTH.kind === 'apiKeyHeader' ? AUTH.value : '');
    await checkPage(page, 'connection-form');
    await form.getByRole('button', { name: 'Save connection' }).click();
    await page
      .getByRole('row', { name: /KYC live/ })
      .getByText('active')
      .waitFor();
    const stored = await app.deps.db('connections').where({ operator_id: owner.operatorId }).first();
    expect(JSON.stringify(stored)).not.toContain('kyc-secret-4242');
    expect(await page.content()).not.toContain('kyc-secret-4242');
  });

  it('calls the supplier through /gateway in canonical names, with the credentials added', async () => {
    const section = page.getByRole('region', { name: 'Try an operation' });
    await section.getByLabel('Operation').fill('kyc.status');
    await section.getByRole('button', { name: 'Add field' }).click();
    await section.getByLabel('Field 1').fill('playerId');
    await section.getByLabel('Value 1').fill('p-77');
    await section.getByRole('button', { name: 'Call the supplier' }).click();
    await section.getByRole('heading', { name: /^HTTP 200/ }).waitFor({ timeout: 30_000 });
    expect(JSON.parse((await section.locator('pre').textContent()) ?? '')).toEqual({ playerId: 'p-77', status: 'approved' });
    const received = supplier.requests.at(-1)!;
    expect(received.path).toBe('/v1/players/p-77/kyc');
    expect(received.headers['x-api-key']).toBe('kyc-secret-4242');
    expect(received.headers.authorization ?? '').not.toMatch(/dsh_/);
    expect(await app.deps.db('api_keys').where({ operator_id: owner.operatorId })).toEqual([]);
    await checkPage(page, 'connections-try');
  });

  it('an inactive connection is refused with CONNECTION_INACTIVE', async () => {
    await page.getByRole('button', { name: 'Edit KYC live' }).click();
    const form = page.getByRole('form', { name: 'Edit KYC live' });
    await form.getByLabel('Active', { exact: true }).uncheck();
    await form.getByRole('button', { name: 'Save connection' }).click();
    await page
      .getByRole('row', { name: /KYC live/ })
      .getByText('inactive')
      .waitFor();
    const section = page.getByRole('region', { name: 'Try an operation' });
    await section.getByRole('button', { name: 'Call the supplier' }).click();
    await section.getByRole('heading', { name: 'Failed: HTTP 400' }).waitFor();
    await section.getByText('CONNECTION_INACTIVE').waitFor();
  });
});
