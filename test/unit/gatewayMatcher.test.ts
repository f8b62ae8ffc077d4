import type { IndexedOperation } from '../../core/gateway/blueprint';
import { matchOperation, methodForAction, parseOperation, wordsOf } from '../../core/gateway/operationMatcher';

const op = (method: IndexedOperation['method'], path: string, operationId: string | null = null, summary: string | null = null): IndexedOperation => ({
  method,
  path,
  operationId,
  summary,
  parameters: [],
  security: null,
});

const payments = [
  op('GET', '/payments', 'listPayments', 'List payments'),
  op('POST', '/payments', 'createPayment', 'Create a deposit or withdrawal payment'),
  op('GET', '/payments/{payment_id}', 'getPayment', 'Fetch one payment'),
  op('POST', '/payments/{payment_id}/refund', 'refundPayment', 'Refund a payment'),
  op('GET', '/wallets/{account_id}/balance', 'getWalletBalance', 'Wallet balance of an account'),
];

const kyc = [
  op('GET', '/players/{player_ref}/kyc', 'getKycStatus', 'Get the KYC status of a player'),
  op('POST', '/verifications', 'createVerification', 'Start a document verification'),
  op('GET', '/verifications/{verification_id}', 'getVerification', 'Read a verification'),
  op('DELETE', '/verifications/{verification_id}', 'cancelVerification', 'Cancel a pending verification'),
  op('POST', '/kyc/checks', null, null),
];

const chosen = (operations: IndexedOperation[], operation: string, params: string[] = []) => {
  const match = matchOperation(operations, operation, params);
  return match ? `${match.operation.method} ${match.operation.path}` : null;
};

describe('action keyword → method (spec 4.3 table)', () => {
  it.each([
    ...['verify', 'check', 'get', 'list', 'fetch', 'read', 'search', 'find', 'status', 'balance'].map((word) => [word, 'GET']),
    ...['create', 'deposit', 'submit', 'send', 'initiate', 'register', 'start'].map((word) => [word, 'POST']),
    ...['update', 'modify', 'edit'].map((word) => [word, 'PATCH']),
    ...['replace', 'set'].map((word) => [word, 'PUT']),
    ...['delete', 'remove', 'cancel', 'revoke'].map((word) => [word, 'DELETE']),
    ['refund', 'POST'],
    ['approve', 'POST'],
  ])('%s → %s', (action, method) => {
    expect(methodForAction(action)).toBe(method);
  });

  it('finds the keyword inside compound actions', () => {
    expect(methodForAction('getBalance')).toBe('GET');
    expect(methodForAction('bulk_delete')).toBe('DELETE');
    expect(methodForAction('reUpdate')).toBe('PATCH');
  });
});

describe('parseOperation and wordsOf', () => {
  it('splits entity.action and rejects other shapes', () => {
    expect(parseOperation('player.verify')).toEqual({ entity: 'player', action: 'verify' });
    expect(parseOperation(' kyc.status ')).toEqual({ entity: 'kyc', action: 'status' });
    expect(parseOperation('player')).toBeNull();
    expect(parseOperation('a.b.c')).toBeNull();
    expect(parseOperation('.verify')).toBeNull();
  });

  it('splits identifiers and prose into lower-case words', () => {
    expect(wordsOf('getKYCStatus')).toEqual(['get', 'kyc', 'status']);
    expect(wordsOf('kyc-checks_v2')).toEqual(['kyc', 'checks', 'v2']);
    expect(wordsOf('Start a document verification')).toEqual(['start', 'a', 'document', 'verification']);
  });
});

describe('matchOperation', () => {
  it('uses the keyword method and the operationId to pick among endpoints of one entity', () => {
    expect(chosen(payments, 'payment.list')).toBe('GET /payments');
    expect(chosen(payments, 'payment.get', ['payment_id'])).toBe('GET /payments/{payment_id}');
    expect(chosen(payments, 'payment.deposit', ['amount_minor'])).toBe('POST /payments');
    expect(chosen(payments, 'payment.create')).toBe('POST /payments');
  });

  it('matches an action without a keyword against the path and operationId (refund → POST …/refund)', () => {
    expect(chosen(payments, 'payment.refund', ['payment_id'])).toBe('POST /payments/{payment_id}/refund');
    expect(chosen(payments, 'wallet.balance', ['account_id'])).toBe('GET /wallets/{account_id}/balance');
  });

  it('matches plural path segments and multi-word entities', () => {
    expect(chosen(kyc, 'verification.cancel', ['verification_id'])).toBe('DELETE /verifications/{verification_id}');
    expect(chosen(kyc, 'verification.start')).toBe('POST /verifications');
    expect(chosen(kyc, 'kyc.status', ['player_ref'])).toBe('GET /players/{player_ref}/kyc');
    expect(chosen(kyc, 'kycCheck.submit')).toBe('POST /kyc/checks');
  });

  it('lets an action found in the path override the keyword method (verify → POST /…/verify)', () => {
    const operations = [op('GET', '/players/{id}'), op('POST', '/players/{id}/verify')];
    expect(chosen(operations, 'player.verify', ['id'])).toBe('POST /players/{id}/verify');
  });

  it('prefers endpoints whose path parameters the params can fill', () => {
    const operations = [op('GET', '/players/{id}'), op('GET', '/players')];
    expect(chosen(operations, 'player.get', ['id'])).toBe('GET /players/{id}');
    expect(chosen(operations, 'player.get', [])).toBe('GET /players');
  });

  it('finds nothing when no path names the entity, or nothing relates to the action', () => {
    expect(chosen(payments, 'player.get')).toBeNull();
    expect(chosen(payments, 'payment.delete', ['payment_id'])).toBeNull();
    expect(chosen(payments, 'payments')).toBeNull();
    expect(chosen([], 'payment.get')).toBeNull();
  });

  it('breaks ties by document order', () => {
    const operations = [op('GET', '/items'), op('GET', '/items/archive')];
    expect(chosen(operations, 'item.list')).toBe('GET /items');
  });
});
