import { randomUUID } from 'node:crypto';
import { recordApiKeyUses } from '../../commands/apiKeys/usage';
import { CommandError } from '../../commands/errors';
import { collectGatewayAnswer, giveUpOnGatewayCall } from '../../commands/gatewayCalls';
import { decideAuthorizationRequest, openAuthorizationRequest, type AuthorizationRequestInput } from '../../commands/mcpOAuth/authorizationRequests';
import { registerClient, resolveClient } from '../../commands/mcpOAuth/clients';
import { outcomeUnknownMessage } from '../../core/gateway/callIdempotency';
import { beginSend, storeOutcome } from '../../db/queries/gatewayCalls';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { ownerMemberId } from '../helpers/team';

/**
 * The use cases that left api/ for commands/ (issue 43), called as a job or a script calls them: no HTTP, answers in
 * business terms (refusal codes and results), the database as they leave it, and one operator's call never reaching
 * another's rows. Their HTTP answers are the OAuth, gateway and key suites'.
 */
describe('commands without HTTP: OAuth clients and requests, gateway calls, key uses', () => {
  let app: TestApp;
  let a: TestOperator;
  let b: TestOperator;
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const refusalOf = async (promise: Promise<unknown>) => {
    const error: unknown = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CommandError);
    return { code: (error as CommandError).code, message: (error as CommandError).message };
  };

  beforeAll(async () => {
    app = await startTestApp();
    a = await signupOperator(app.url, 'House order A');
    b = await signupOperator(app.url, 'House order B');
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('OAuth clients', () => {
    it('refuses metadata with the RFC 7591 codes and stores nothing', async () => {
      const name = `refused-${randomUUID()}`;
      expect(await refusalOf(registerClient(app.deps, { client_name: name, redirect_uris: ['javascript:alert(1)'] }))).toEqual({
        code: 'invalid_redirect_uri',
        message: 'redirect_uris: javascript:alert(1) the javascript scheme is not allowed',
      });
      expect(
        await refusalOf(registerClient(app.deps, { client_name: name, redirect_uris: ['https://host.example/cb'], grant_types: ['client_credentials'] })),
      ).toEqual({ code: 'invalid_client_metadata', message: 'grant_types: supported are authorization_code, refresh_token' });
      expect(await app.deps.db('oauth_clients').where({ client_name: name }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    });

    it('registers a public client and resolves it; an unknown id is invalid_client', async () => {
      const name = `host-${randomUUID()}`;
      const row = await registerClient(app.deps, { client_name: name, redirect_uris: ['https://host.example/cb'] });
      expect(row).toMatchObject({ kind: 'dcr', client_name: name, client_uri: null, redirect_uris: ['https://host.example/cb'] });
      expect(row.id).toMatch(/^mcpc_/);
      expect(await app.deps.db('oauth_clients').where({ id: row.id }).first('kind', 'client_name')).toEqual({ kind: 'dcr', client_name: name });
      expect((await resolveClient(app.deps, row.id)).id).toBe(row.id);
      expect(await refusalOf(resolveClient(app.deps, 'mcpc_unknown'))).toEqual({
        code: 'invalid_client',
        message: 'client_id is not registered (or its registration expired unused): register again',
      });
    });
  });

  describe('authorization requests', () => {
    const mcpResource = 'http://127.0.0.1:1/mcp-server';
    let clientId: string;
    const ask = (change: Partial<AuthorizationRequestInput>): AuthorizationRequestInput => ({
      clientId,
      redirectUri: 'https://host.example/one',
      responseType: 'code',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      state: 'st-1',
      scope: 'mcp:tools.read mcp:tools.write',
      resource: undefined,
      mcpResource,
      ...change,
    });
    const requestsOfClient = async () =>
      Number((await app.deps.db('oauth_requests').where({ client_id: clientId }).count<{ count: string }[]>('* as count'))[0]!.count);

    beforeAll(async () => {
      clientId = (await registerClient(app.deps, { client_name: 'Two URIs', redirect_uris: ['https://host.example/one', 'https://host.example/two'] })).id;
    });

    it('refuses an unusable redirect URI as a result for the caller, and the rest for the host, storing nothing', async () => {
      expect(await openAuthorizationRequest(app.deps, ask({ redirectUri: undefined }))).toEqual({
        kind: 'redirect_uri_refused',
        description: 'redirect_uri is required (the client registered several)',
      });
      expect(await openAuthorizationRequest(app.deps, ask({ redirectUri: 'https://elsewhere.example/cb' }))).toEqual({
        kind: 'redirect_uri_refused',
        description: 'redirect_uri is not one the client registered',
      });
      expect(await openAuthorizationRequest(app.deps, ask({ responseType: 'token' }))).toEqual({
        kind: 'refused',
        redirectUri: 'https://host.example/one',
        error: 'unsupported_response_type',
        description: 'response_type must be code',
      });
      expect(await openAuthorizationRequest(app.deps, ask({ resource: 'https://other.example/mcp' }))).toEqual({
        kind: 'refused',
        redirectUri: 'https://host.example/one',
        error: 'invalid_target',
        description: `resource must be ${mcpResource}`,
      });
      expect(await requestsOfClient()).toBe(0);
    });

    it('opens a request, and a Member may not approve write where Members may not: the request stays for a narrower approval', async () => {
      const opened = await openAuthorizationRequest(app.deps, ask({}));
      if (opened.kind !== 'opened') throw new Error(`not opened: ${JSON.stringify(opened)}`);
      expect(await app.deps.db('oauth_requests').where({ id: opened.requestId }).first('client_id', 'state', 'scopes', 'resource')).toEqual({
        client_id: clientId,
        state: 'st-1',
        scopes: ['mcp:tools.read', 'mcp:tools.write'],
        resource: mcpResource,
      });
      const member = await addMemberAndSignIn(app.deps.db, app.url, a.operatorId, 'member');
      const asMember = { operatorId: a.operatorId, member: { id: member.memberId, role: 'member' as const }, requestId: opened.requestId };
      expect(await decideAuthorizationRequest(app.deps, { ...asMember, decision: 'approve', scopes: undefined })).toEqual({
        kind: 'not_allowed',
        description: 'A Member may not approve tools with real effects in this organisation: approve read-only tools, or ask an Owner or Admin',
      });
      expect(await requestsOfClient()).toBe(1);

      const approved = await decideAuthorizationRequest(app.deps, { ...asMember, decision: 'approve', scopes: ['mcp:tools.read'] });
      expect(approved).toEqual({ kind: 'decided', redirectUri: 'https://host.example/one', state: 'st-1', code: expect.stringMatching(/^mcpac_/) });
      expect(await requestsOfClient()).toBe(0);
      expect(await app.deps.db('mcp_oauth_grants').where({ client_id: clientId }).select('operator_id', 'member_id', 'scopes')).toEqual([
        { operator_id: a.operatorId, member_id: member.memberId, scopes: ['mcp:tools.read'] },
      ]);
      expect(await decideAuthorizationRequest(app.deps, { ...asMember, decision: 'deny', scopes: undefined })).toEqual({ kind: 'unknown_request' });
    });

    it('a denial is decided without a code, and B’s Owner denying leaves no grant anywhere', async () => {
      const opened = await openAuthorizationRequest(app.deps, ask({ state: undefined }));
      if (opened.kind !== 'opened') throw new Error(`not opened: ${JSON.stringify(opened)}`);
      const owner = { id: await ownerMemberId(app.deps.db, b.operatorId), role: 'owner' as const };
      const grantsBefore = await app.deps.db('mcp_oauth_grants').where({ client_id: clientId }).count<{ count: string }[]>('* as count');
      expect(
        await decideAuthorizationRequest(app.deps, {
          operatorId: b.operatorId,
          member: owner,
          requestId: opened.requestId,
          decision: 'deny',
          scopes: undefined,
        }),
      ).toEqual({
        kind: 'decided',
        redirectUri: 'https://host.example/one',
        state: null,
      });
      expect(await requestsOfClient()).toBe(0);
      expect(await app.deps.db('mcp_oauth_grants').where({ client_id: clientId }).count<{ count: string }[]>('* as count')).toEqual(grantsBefore);
      expect(await app.deps.db('mcp_oauth_grants').where({ operator_id: b.operatorId }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    });
  });

  describe('gateway calls', () => {
    const call = (operatorId: string, method = 'POST') => ({
      operatorId,
      callId: `gc_${randomUUID()}`,
      connectionId: 'conn-1',
      operation: 'player.verify',
      method,
      requestHash: 'h',
    });
    const stateOf = async (operatorId: string, callId: string) =>
      app.deps.db('gateway_calls').where({ operator_id: operatorId, id: callId }).first('state', 'code', 'message');

    it('gives up on a call still sending as outcome_unknown; another operator’s give-up and an answered call change nothing', async () => {
      const sending = call(a.operatorId);
      expect(await beginSend(app.deps.db, sending)).toBe(true);
      await giveUpOnGatewayCall(app.deps, { operatorId: b.operatorId, callId: sending.callId });
      expect(await stateOf(a.operatorId, sending.callId)).toEqual({ state: 'sending', code: null, message: null });
      await giveUpOnGatewayCall(app.deps, sending);
      expect(await stateOf(a.operatorId, sending.callId)).toEqual({
        state: 'outcome_unknown',
        code: 'GATEWAY_OUTCOME_UNKNOWN',
        message: outcomeUnknownMessage(sending.callId),
      });

      const answered = call(a.operatorId);
      const outcome = { ok: true, status: 200, dataJson: '{"verified":true}', message: null, latencyMs: 12 };
      await storeOutcome(app.deps.db, app.deps.keyring, { ...answered, keepMs: 60_000 }, outcome);
      await giveUpOnGatewayCall(app.deps, answered);
      expect(await stateOf(a.operatorId, answered.callId)).toEqual({ state: 'answered', code: null, message: null });
    });

    it('collects a handed-over GET answer once, a POST answer every time, and never another operator’s', async () => {
      const outcome = { ok: true, status: 200, dataJson: '{"verified":true}', message: null, latencyMs: 12 };
      const get = call(a.operatorId, 'GET');
      await storeOutcome(app.deps.db, app.deps.keyring, { ...get, keepMs: 60_000 }, outcome);
      expect(await collectGatewayAnswer(app.deps, { operatorId: b.operatorId, callId: get.callId })).toBeUndefined();
      expect(await collectGatewayAnswer(app.deps, get)).toEqual(outcome);
      expect(await stateOf(a.operatorId, get.callId)).toBeUndefined();
      expect(await collectGatewayAnswer(app.deps, get)).toBeUndefined();

      const post = call(a.operatorId, 'POST');
      await storeOutcome(app.deps.db, app.deps.keyring, { ...post, keepMs: 60_000 }, outcome);
      expect(await collectGatewayAnswer(app.deps, post)).toEqual(outcome);
      expect(await collectGatewayAnswer(app.deps, post)).toEqual(outcome);
    });
  });

  describe('key uses', () => {
    it('records the latest use of each key, never moves one back, and touches no other key', async () => {
      const keyA = await createApiKey(app.url, a, 'uses-a');
      const keyB = await createApiKey(app.url, b, 'uses-b');
      const lastUsed = async (id: string) =>
        ((await app.deps.db('api_keys').where({ id }).first('last_used_at')) as { last_used_at: Date | null }).last_used_at;
      const later = new Date('2030-01-02T03:04:05.000Z');
      await recordApiKeyUses(app.deps, [{ id: keyA.id, usedAt: later }]);
      await recordApiKeyUses(app.deps, [
        { id: keyA.id, usedAt: new Date('2029-01-01T00:00:00.000Z') },
        { id: randomUUID(), usedAt: later },
      ]);
      expect(await lastUsed(keyA.id)).toEqual(later);
      expect(await lastUsed(keyB.id)).toBeNull();
    });
  });
});
