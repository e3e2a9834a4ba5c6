/**
 * Typed errors and credentials, through the client's own interface: a call answered with the
 * API's error body becomes a PatchbayApiError with its status, message, errors by field and
 * Retry-After; an answer that is not one (a proxy's page) still becomes one. Answers come from a
 * stand-in fetch returning real Response objects.
 */
import { createPatchbayClient, data, PatchbayApiError, authorization } from '../src';
import { rejection } from './support/rejection';

const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
  const calls: Request[] = [];
  const fetchImpl = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    calls.push(new Request(input, init));
    return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return {
    calls,
    pb: createPatchbayClient({
      baseUrl: 'http://api.test/core/v2',
      credentials: { token: 't0k3n' },
      fetch: fetchImpl as typeof fetch,
    }),
  };
};

test('an error body becomes a PatchbayApiError: status, message, errors by field, request ID', async () => {
  const body = {
    message: 'validation error',
    errors: [
      { field: 'limit', message: 'limit must be an integer from 1 to 1000', reference_sid: null },
      { field: null, message: 'and this', reference_sid: null },
    ],
  };
  const { pb, calls } = answer(400, JSON.stringify(body), { 'x-request-id': 'req-1' });
  const e = await rejection(data(pb.api.GET('/countries', { params: { query: { limit: 5000 } } })));
  expect(e).toBeInstanceOf(PatchbayApiError);
  expect([e.status, e.body, e.requestId, e.retryAfter]).toEqual([400, body, 'req-1', null]);
  expect(e.byField()).toEqual({ limit: ['limit must be an integer from 1 to 1000'], '': ['and this'] });
  expect(e.message).toBe(
    'HTTP 400: validation error\n  - limit: limit must be an integer from 1 to 1000\n  - (request): and this',
  );
  expect(calls[0].url).toBe('http://api.test/core/v2/countries?limit=5000');
  expect(calls[0].headers.get('authorization')).toBe('Bearer t0k3n');
});

test('429 and 503 carry Retry-After', async () => {
  const { pb } = answer(429, JSON.stringify({ message: 'too many failed logins', errors: [] }), {
    'retry-after': '30',
  });
  const err = await rejection(
    data(pb.api.POST('/oauth/token', { body: { grant_type: 'password', username: 'a', password: 'b' } })),
  );
  expect([err.status, err.retryAfter]).toEqual([429, 30]);
});

test('an answer that is not the error body still becomes a PatchbayApiError with its text', async () => {
  const { pb } = answer(502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' });
  const err = await rejection(data(pb.api.GET('/oauth/whoami')));
  expect([err.status, err.body]).toEqual([502, { message: '<html>Bad Gateway</html>', errors: [] }]);
});

test('Basic credentials are UTF-8 in Base64; a token wins over them; no credentials, no header', () => {
  expect(authorization({ login: 'zoë', password: 'pässwörd' })).toEqual({
    Authorization: `Basic ${Buffer.from('zoë:pässwörd', 'utf8').toString('base64')}`,
  });
  expect(authorization({ token: 'x', login: 'a', password: 'b' })).toEqual({ Authorization: 'Bearer x' });
  expect(authorization({})).toEqual({});
});
