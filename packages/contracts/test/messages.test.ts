import { compileValidator } from '../src/validate';
import { GatewayRequestSchema } from '../src/gateway-request';
import { PartnerEventSchema } from '../src/messages/identity';
import { EndpointRequests } from '../src/messages/endpoint';
import { IdentityRequests } from '../src/messages/identity';
import { PushRequests } from '../src/messages/push';
import { RecordsRequests } from '../src/messages/records';
import { ThresholdWorkerJobs } from '../src/messages/threshold-worker';
import { Subjects } from '../src/subjects';

const principal = { partner_sid: 'p', login: 'l', scopes: ['endpoints.read'], token_sid: null };

test('every subject of the families in part A has its message schemas', () => {
  for (const [family, table] of [
    ['identity', IdentityRequests],
    ['records', RecordsRequests],
    ['endpoint', EndpointRequests],
    ['push', PushRequests],
    ['thresholdWorker', ThresholdWorkerJobs],
  ] as const) {
    expect(Object.keys(table).sort()).toEqual(Object.values(Subjects[family]).sort());
  }
});

test("a gateway request: principal, params, query and url required; the body is the handler's to check", () => {
  const check = compileValidator(GatewayRequestSchema);
  expect(check({ principal, params: {}, query: { limit: '5' }, url: 'http://x' })).toMatchObject({ principal });
  expect(() => check({ params: {}, query: {}, url: 'http://x' })).toThrow();
  expect(() => check({ principal, params: { sid: 5 }, query: {}, url: 'http://x' })).toThrow();
});

test(
  'versions may differ on the bus: a scope this build does not know, a ' + 'partner field added later, still pass',
  () => {
    expect(
      compileValidator(GatewayRequestSchema)({
        principal: { ...principal, scopes: ['scope.from.the.future'] },
        params: {},
        query: {},
        url: 'u',
      }).principal.scopes,
    ).toEqual(['scope.from.the.future']);
    expect(compileValidator(PartnerEventSchema)({ partner: { partner_sid: 'p', shoe_size: 44 } })).toEqual({
      partner: { partner_sid: 'p', shoe_size: 44 },
    });
    expect(() => compileValidator(PartnerEventSchema)({ partner: {} })).toThrow();
  },
);
