import { createHmac } from 'node:crypto';
import { outboundAuth } from '../../core/gateway/outboundAuth';

const call = (
  schemes: Parameters<typeof outboundAuth>[0]['schemes'],
  credentials: Parameters<typeof outboundAuth>[0]['credentials'],
  requirements: Parameters<typeof outboundAuth>[0]['requirements'] = [],
  bodyText = '',
) => outboundAuth({ schemes, requirements, credentials, bodyText });

describe('outbound authentication (spec 4.3 table)', () => {
  it('apiKey in a header, the query or a cookie', () => {
    expect(call({ k: { kind: 'apiKey', name: 'X-Api-Key', in: 'header' } }, { apiKey: 'key1' })).toEqual({ headers: { 'X-Api-Key': 'key1' }, query: [] });
    expect(call({ k: { kind: 'apiKey', name: 'api_key', in: 'query' } }, { apiKey: 'key1' })).toEqual({ headers: {}, query: [['api_key', 'key1']] });
    expect(call({ k: { kind: 'apiKey', name: 'sid', in: 'cookie' } }, { apiKey: 'a b' })).toEqual({ headers: { Cookie: 'sid=a%20b' }, query: [] });
  });

  it('HTTP bearer and basic', () => {
    expect(call({ b: { kind: 'bearer' } }, { token: 't1' }).headers).toEqual({ Authorization: 'Bearer t1' });
    expect(call({ b: { kind: 'basic' } }, { username: 'ada', password: 'p:w' }).headers).toEqual({
      Authorization: `Basic ${Buffer.from('ada:p:w').toString('base64')}`,
    });
  });

  it('HMAC-SHA256 of the exact body text with X-Signature and X-Signature-Algorithm', () => {
    const body = '{"amount_minor":5}';
    expect(call({ h: { kind: 'hmac' } }, { secret: 's3cret' }, [], body).headers).toEqual({
      'X-Signature': createHmac('sha256', 's3cret').update(body).digest('hex'),
      'X-Signature-Algorithm': 'HMAC-SHA256',
    });
  });

  it('no scheme defined: a bearer token from the first available credential', () => {
    expect(call({}, { apiKey: 'k', token: 't' }).headers).toEqual({ Authorization: 'Bearer t' });
    expect(call({}, { apiKey: 'k', secret: 's' }).headers).toEqual({ Authorization: 'Bearer k' });
    expect(call({}, { password: 'p' }).headers).toEqual({ Authorization: 'Bearer p' });
    expect(call({}, {})).toEqual({ headers: {}, query: [] });
  });

  it('follows the requirement list: the first alternative the credentials satisfy, every scheme of it', () => {
    const schemes = {
      basic: { kind: 'basic' as const },
      key: { kind: 'apiKey' as const, name: 'X-Key', in: 'header' as const },
      sig: { kind: 'hmac' as const },
    };
    expect(call(schemes, { apiKey: 'k', secret: 's' }, [{ basic: [] }, { key: [], sig: [] }]).headers).toEqual({
      'X-Key': 'k',
      'X-Signature': createHmac('sha256', 's').update('').digest('hex'),
      'X-Signature-Algorithm': 'HMAC-SHA256',
    });
    expect(call(schemes, { apiKey: 'k' }, [{}]).headers).toEqual({});
    expect(call(schemes, { username: 'u', password: 'p' }).headers).toEqual({ Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
  });
});
