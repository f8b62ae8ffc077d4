import { isDependencyOutage } from '../../api/dependencyOutage';
import { AppError } from '../../api/errors';
import { CallDeadlineError } from '../../temporal/gatewayCalls';

const withCode = (message: string, code: string | number, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });

describe('isDependencyOutage', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['PostgreSQL shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ["pg's connection-lost text behind knex's SQL prefix", new Error('ROLLBACK - Client has encountered a connection error and is not queryable')],
    ['knex pool timeout', Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' })],
    [
      'gRPC UNAVAILABLE inside a Temporal ServiceError',
      new Error('Failed to start', { cause: withCode('14 UNAVAILABLE: No connection established', 14, { details: 'No connection established' }) }),
    ],
    ['a synchronous call past its deadline', new CallDeadlineError('gateway call did not finish within 23000 ms')],
    [
      'an outage as the cause of a handler 500',
      new AppError(500, 'INTERNAL_ERROR', 'Failed to list keys', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }),
    ],
  ])('%s is an outage', (_, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a missing table', withCode('relation "entities" does not exist', '42P01')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a number code without gRPC details', withCode('odd', 14)],
    ['gRPC NOT_FOUND', withCode('5 NOT_FOUND: workflow not found', 5, { details: 'workflow not found' })],
    ['not an error at all', 'ECONNREFUSED'],
  ])('%s is not', (_, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
