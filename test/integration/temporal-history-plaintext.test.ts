import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
import { startTestApp, type TestApp } from '../helpers/app';
import { startProvider, type ProviderAuth, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';
import { decodedHistoryText, payloadsIn, rawHistory } from '../helpers/temporalHistory';
import { chain, waitForRuns, automationsClient, type AutomationsClient } from '../helpers/automations';

/** Every `Failure` in a history (activity, workflow and Update failures and their causes), found by shape. */
function failuresIn(node: unknown, found: temporal.api.failure.v1.IFailure[] = []): temporal.api.failure.v1.IFailure[] {
  if (node === null || typeof node !== 'object' || node instanceof Uint8Array) return found;
  const candidate = node as temporal.api.failure.v1.IFailure;
  if (typeof candidate.message === 'string' && ('applicationFailureInfo' in candidate || 'encodedAttributes' in candidate || 'cause' in candidate))
    found.push(candidate);
  for (const child of Array.isArray(node) ? node : Object.values(node)) failuresIn(child, found);
  return found;
}

/**
 * Issue 14: what the platform sends through Temporal is sealed there. Real traffic carries a known email (entity
 * PII through an event-triggered run, a manual test run and a failing one, a gateway call's parameters and
 * answer), a third-party API key (an `http_request` header) and a supplier credential (a gateway connection);
 * the histories are then read as the server stores them, with no codec on the way.
 */
describe('Temporal histories hold no plaintext personal data or secrets', () => {
  const stamp = randomUUID().slice(0, 8);
  const email = `planted-${stamp}@example.com`;
  const thirdPartyKey = `sk_live_planted_${stamp}`;
  const auth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: `supplier-secret-${stamp}` };
  let app: TestApp;
  let client: AutomationsClient;
  let hook: TestProvider;
  let kyc: TestProvider;
  const temporalIds: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    hook = await startProvider(() => ({ status: 200, body: { received: true } }));
    kyc = await startKycSupplier(auth);
  });
  afterAll(async () => {
    await kyc?.close();
    await hook?.close();
    await app?.close();
  });

  const runsTemporalIds = (runs: any[]) => runs.map((run) => run.temporalWorkflowId as string);

  it('event-triggered runs carry the email (a new player, and a deposit whose data names the payer) with a third-party key; a manual test run and a failing one carry it too', async () => {
    const tellCrm = (event: string, value: string) =>
      client.create(
        chain(
          `Tell the CRM on ${event}`,
          [
            {
              id: 'tell',
              type: 'action.http_request',
              params: { method: 'POST', url: `${hook.url}/crm/${event}`, headers: { 'X-Api-Key': thirdPartyKey }, body: { email: value } },
            },
          ],
          { id: 'start', type: 'trigger.event', params: { event } },
        ),
      );
    const onNewPlayer = await tellCrm('entity.created', '{{ trigger.data.email }}');
    const onDeposit = await tellCrm('entity_event.transaction', '{{ trigger.data.payerEmail }}');
    expect((await client.call('/entities', { body: { externalId: 'p-pii', entityType: 'player', data: { email, country: 'MT' } } })).status).toBe(201);
    expect(
      (
        await client.call('/entities/p-pii/events', {
          body: { eventType: 'transaction', data: { type: 'deposit', amount: 100, currency: 'EUR', payerEmail: email } },
        })
      ).status,
    ).toBe(201);
    const [playerRun] = await waitForRuns(client, onNewPlayer.id, 1);
    const [depositRun] = await waitForRuns(client, onDeposit.id, 1);
    expect([playerRun.status, depositRun.status]).toEqual(['completed', 'completed']);
    // The new player's email reaches its run opened from the entity's sealed field, as the deposit's payer email does.
    expect(hook.requests.find((request) => request.path === '/crm/entity.created')?.json).toEqual({ email });
    const deposit = hook.requests.find((request) => request.path === '/crm/entity_event.transaction');
    expect(deposit?.json).toEqual({ email });
    expect(deposit?.headers['x-api-key']).toBe(thirdPartyKey);

    const manual = await client.create(
      chain('Echo', [
        {
          id: 'echo',
          type: 'action.http_request',
          params: { method: 'POST', url: `${hook.url}/echo`, headers: { 'X-Api-Key': thirdPartyKey }, body: { contact: '{{ trigger.email }}' } },
        },
      ]),
    );
    const test = await client.wf(`/workflows/${manual.id}/test`, { body: { id: 'pz', email } });
    expect(test.body.data).toMatchObject({ status: 'completed', input: { id: 'pz', email } });

    const failing = await client.create(
      chain('Mark unknown', [{ id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.email }}', key: 'risk_score', value: 1 } }]),
    );
    const failed = await client.wf(`/workflows/${failing.id}/test`, { body: { email } });
    expect(failed.body.data.status).toBe('failed');

    temporalIds.push(...runsTemporalIds([playerRun, depositRun, test.body.data, failed.body.data]));
  });

  it('a gateway call sends the email as a parameter through a connection with a supplier credential, and gets it back', async () => {
    const { connectionId } = await connectSupplier(app.url, client.key, {
      openapi: kycDocument(kyc.url, auth),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: credentialsFor(auth),
    });
    const response = await callGateway(app.url, client.key, { connectionId, operation: 'kyc.status', params: { playerId: email } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ playerId: email, status: 'approved' });
    temporalIds.push(`gateway-lane-${client.operator.operatorId}-${app.deps.temporal.instanceId}-0`);
  });

  it('the raw histories (no codec) hold none of the planted values; opened with the codec, they hold the email', async () => {
    expect(temporalIds).toHaveLength(5);
    const planted = { email, thirdPartyKey, supplierCredential: auth.value, platformApiKey: client.key };
    for (const workflowId of temporalIds) {
      const { history, bytes } = await rawHistory(app, workflowId);
      expect(bytes.length).toBeGreaterThan(500);
      for (const [name, value] of Object.entries(planted)) {
        const found = [value, Buffer.from(value).toString('base64')].filter((form) => bytes.includes(form));
        expect({ workflowId, name, found }).toEqual({ workflowId, name, found: [] });
      }
      // A local activity's marker keeps the SDK core's own bookkeeping (`data`: seq, attempt, activity type, times)
      // unencoded; its `result` is sealed like any payload. A patch's marker and the TemporalChangeVersion search
      // attribute it sets name the patch (code, docs/workflows.md#versioning), written by the SDK core, never data.
      const coreMeta = new Set(
        (history.events ?? []).flatMap((event) => {
          const marker = event.markerRecordedEventAttributes;
          if (marker?.markerName === 'core_local_activity') return marker.details?.data?.payloads ?? [];
          if (marker?.markerName === 'core_patch') return Object.values(marker.details ?? {}).flatMap((details) => details.payloads ?? []);
          return Object.values(event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {});
        }),
      );
      const payloads = payloadsIn(history).filter((payload) => !coreMeta.has(payload));
      expect(payloads.length).toBeGreaterThan(0);
      const unsealed = payloads.filter((payload) => Buffer.from(payload.metadata?.encoding ?? []).toString() !== 'binary/encrypted');
      expect({ workflowId, unsealed: unsealed.map((payload) => Buffer.from(payload.data ?? []).toString()) }).toEqual({ workflowId, unsealed: [] });
    }
    // The failed run's node failure: message and stack trace sealed in the failure's encoded attributes.
    const { history: failedHistory } = await rawHistory(app, temporalIds[3]!);
    const failures = failuresIn(failedHistory);
    expect(failures.length).toBeGreaterThan(0);
    expect(
      failures.map((failure) => [failure.message, failure.stackTrace ?? '', Buffer.from(failure.encodedAttributes?.metadata?.encoding ?? []).toString()]),
    ).toEqual(failures.map(() => ['Encoded failure', '', 'binary/encrypted']));

    // Opened, every history shows what the run carried: the email.
    const opened = await Promise.all(
      temporalIds.map(async (workflowId) => [workflowId, (await decodedHistoryText(app, workflowId)).match(/planted-[0-9a-f]{8}@example\.com/)?.[0]]),
    );
    expect(opened).toEqual(temporalIds.map((workflowId) => [workflowId, email]));
  });
});
