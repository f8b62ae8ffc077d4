import { http } from './http';
import { authorised, startProvider, type ProviderAuth, type ReceivedRequest, type ProviderReply, type TestProvider } from './providerServer';

/** Canonical → provider names of the KYC supplier. */
export const KYC_SCHEMA_MAP = {
  playerId: 'player_ref',
  documentType: 'doc_type',
  status: 'kyc_state',
  completedAt: 'checked_on',
  verificationId: 'verification_id',
  firstName: 'given_name',
  lastName: 'family_name',
};

/** Canonical → provider names of the payments supplier. */
export const PAYMENTS_SCHEMA_MAP = {
  playerId: 'customer_id',
  amount: 'amount_minor',
  currency: 'ccy',
  status: 'state',
  reference: 'payment_id',
  accountId: 'account_id',
};

/** The connection credentials that satisfy a supplier's auth. */
export function credentialsFor(auth: ProviderAuth): Record<string, string> {
  switch (auth.kind) {
    case 'apiKeyHeader':
    case 'apiKeyQuery':
      return { apiKey: auth.value };
    case 'bearer':
      return { token: auth.token };
    case 'basic':
      return { username: auth.username, password: auth.password };
    case 'hmac':
      return { secret: auth.secret };
    case 'none':
      return auth.expectedBearer ? { token: auth.expectedBearer } : {};
  }
}

function openApiScheme(auth: ProviderAuth): Record<string, unknown> | null {
  switch (auth.kind) {
    case 'apiKeyHeader':
      return { type: 'apiKey', in: 'header', name: auth.name };
    case 'apiKeyQuery':
      return { type: 'apiKey', in: 'query', name: auth.name };
    case 'bearer':
      return { type: 'http', scheme: 'bearer' };
    case 'basic':
      return { type: 'http', scheme: 'basic' };
    case 'hmac':
      return { type: 'http', scheme: 'hmac' };
    case 'none':
      return null;
  }
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });

/** An OpenAPI 3.0 document (object form, with `$ref`s) of a KYC supplier served at `${url}/v1`. */
export function kycDocument(url: string, auth: ProviderAuth): Record<string, unknown> {
  const scheme = openApiScheme(auth);
  return {
    openapi: '3.0.3',
    info: { title: 'VeriKYC', version: '2.1.0' },
    servers: [{ url: `${url}/v1` }],
    paths: {
      '/players/{player_ref}/kyc': {
        parameters: [{ $ref: '#/components/parameters/PlayerRef' }],
        get: {
          operationId: 'getKycStatus',
          summary: 'Get the KYC status of a player',
          responses: { 200: { description: 'Status', content: json({ $ref: '#/components/schemas/KycStatus' }) } },
        },
      },
      '/verifications': {
        post: {
          operationId: 'createVerification',
          summary: 'Start a document verification',
          requestBody: { content: json({ type: 'object', properties: { player_ref: { type: 'string' }, doc_type: { type: 'string' } } }) },
          responses: { 201: { description: 'Started' } },
        },
      },
      '/verifications/{verification_id}': {
        parameters: [{ name: 'verification_id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getVerification', summary: 'Read a verification', responses: { 200: { description: 'Verification' } } },
        delete: { operationId: 'cancelVerification', summary: 'Cancel a pending verification', responses: { 200: { description: 'Cancelled' } } },
      },
    },
    components: {
      parameters: { PlayerRef: { name: 'player_ref', in: 'path', required: true, schema: { type: 'string' } } },
      schemas: { KycStatus: { type: 'object', properties: { player_ref: { type: 'string' }, kyc_state: { type: 'string' } } } },
      ...(scheme ? { securitySchemes: { supplierAuth: scheme } } : {}),
    },
    ...(scheme ? { security: [{ supplierAuth: [] }] } : {}),
  };
}

/** A Swagger 2.0 document, as YAML text, of a payments supplier at `${url}/api`. HMAC is declared as an `X-Signature` apiKey header. */
export function paymentsSwaggerYaml(url: string, auth: ProviderAuth): string {
  const host = new URL(url).host;
  if (auth.kind === 'bearer') throw new Error('Swagger 2.0 has no bearer scheme');
  const swaggerScheme =
    auth.kind === 'hmac' ? { type: 'apiKey', in: 'header', name: 'X-Signature' } : auth.kind === 'basic' ? { type: 'basic' } : openApiScheme(auth);
  const security = swaggerScheme ? `securityDefinitions:\n  supplierAuth: ${JSON.stringify(swaggerScheme)}\nsecurity:\n  - supplierAuth: []\n` : '';
  return `swagger: '2.0'
info: { title: PayFlow, version: 1.4.0 }
host: '${host}'
basePath: /api
schemes: [http]
consumes: [application/json]
produces: [application/json]
${security}paths:
  /payments:
    get:
      operationId: listPayments
      summary: List payments
      parameters:
        - { in: query, name: state, type: string }
        - { in: query, name: limit, type: integer }
      responses: { '200': { description: Payments } }
    post:
      operationId: createPayment
      summary: Create a deposit or withdrawal payment
      parameters:
        - { in: body, name: payload, schema: { type: object } }
      responses: { '201': { description: Created } }
  /payments/{payment_id}:
    get:
      operationId: getPayment
      summary: Fetch one payment
      parameters:
        - { in: path, name: payment_id, required: true, type: string }
      responses: { '200': { description: Payment } }
  /payments/{payment_id}/refund:
    post:
      operationId: refundPayment
      summary: Refund a payment
      parameters:
        - { in: path, name: payment_id, required: true, type: string }
      responses: { '200': { description: Refunded } }
  /wallets/{account_id}/balance:
    get:
      operationId: getWalletBalance
      summary: Wallet balance of an account
      parameters:
        - { in: path, name: account_id, required: true, type: string }
      responses: { '200': { description: Balance } }
`;
}

function kycReply(request: ReceivedRequest): ProviderReply {
  const player = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path);
  if (player && request.method === 'GET') {
    const ref = decodeURIComponent(player[1]!);
    if (ref === 'unknown') return { status: 404, body: { error: 'player not found', player_ref: ref } };
    return {
      status: 200,
      body: { player_ref: ref, kyc_state: 'approved', checked_on: '2026-01-02T03:04:05Z', documents: [{ doc_type: 'passport', kyc_state: 'approved' }] },
    };
  }
  if (request.path === '/v1/verifications' && request.method === 'POST') {
    return { status: 201, body: { verification_id: 'ver_1', player_ref: request.json?.player_ref, doc_type: request.json?.doc_type, kyc_state: 'pending' } };
  }
  const verification = /^\/v1\/verifications\/([^/]+)$/.exec(request.path);
  if (verification && request.method === 'GET') return { status: 200, body: { verification_id: verification[1], kyc_state: 'requires_review' } };
  if (verification && request.method === 'DELETE') return { status: 200, body: { verification_id: verification[1], kyc_state: 'cancelled' } };
  return { status: 404, body: { error: 'no such endpoint' } };
}

function paymentsReply(request: ReceivedRequest): ProviderReply {
  if (request.path === '/api/payments' && request.method === 'POST') {
    if (!(request.json?.amount_minor > 0)) return { status: 422, body: { error: 'amount_minor must be positive', field: 'amount_minor' } };
    return {
      status: 201,
      body: {
        payment_id: 'pay_123',
        customer_id: request.json.customer_id,
        amount_minor: request.json.amount_minor,
        ccy: request.json.ccy,
        state: 'completed',
      },
    };
  }
  if (request.path === '/api/payments' && request.method === 'GET') {
    return { status: 200, body: { items: [{ payment_id: 'pay_123', state: request.query.get('state') ?? 'completed', amount_minor: 5000 }], count: 1 } };
  }
  const payment = /^\/api\/payments\/([^/]+)$/.exec(request.path);
  if (payment && request.method === 'GET') return { status: 200, body: { payment_id: payment[1], state: 'completed', amount_minor: 5000, ccy: 'EUR' } };
  const refund = /^\/api\/payments\/([^/]+)\/refund$/.exec(request.path);
  if (refund && request.method === 'POST') return { status: 200, body: { payment_id: refund[1], state: 'reversed' } };
  const wallet = /^\/api\/wallets\/([^/]+)\/balance$/.exec(request.path);
  if (wallet && request.method === 'GET') return { status: 200, body: { account_id: decodeURIComponent(wallet[1]!), balance_minor: 12345, ccy: 'EUR' } };
  return { status: 404, body: { error: 'no such endpoint' } };
}

/** Starts a supplier that refuses callers without the expected credentials (401) and otherwise answers `reply`. */
function startSupplier(auth: ProviderAuth, reply: (request: ReceivedRequest) => ProviderReply): Promise<TestProvider> {
  return startProvider((request) => (authorised(request, auth) ? reply(request) : { status: 401, body: { error: 'invalid credentials' } }));
}

export const startKycSupplier = (auth: ProviderAuth) => startSupplier(auth, kycReply);
export const startPaymentsSupplier = (auth: ProviderAuth) => startSupplier(auth, paymentsReply);

/** Creates a connector and a connection through the real API; returns their ids. */
export async function connectSupplier(
  baseUrl: string,
  key: string,
  input: { openapi?: unknown; schemaMap?: Record<string, string>; credentials: Record<string, string>; baseUrl?: string; active?: boolean; provider?: string },
): Promise<{ connectorId: string; connectionId: string }> {
  const connector = await http(`${baseUrl}/connections-api/connectors`, {
    token: key,
    body: { name: 'Supplier', provider: input.provider ?? 'supplier', openapi: input.openapi, schemaMap: input.schemaMap },
  });
  if (connector.status !== 201) throw new Error(`connector: ${connector.status} ${connector.text}`);
  const connection = await http(`${baseUrl}/connections-api/connections`, {
    token: key,
    body: { connectorId: connector.body.data.id, name: 'Live', credentials: input.credentials, baseUrl: input.baseUrl, active: input.active },
  });
  if (connection.status !== 201) throw new Error(`connection: ${connection.status} ${connection.text}`);
  return { connectorId: connector.body.data.id, connectionId: connection.body.data.id };
}

/** `POST /gateway` with an API key. */
export function callGateway(baseUrl: string, key: string, body: unknown) {
  return http(`${baseUrl}/gateway`, { token: key, body });
}
