import { APPLICATION_DEFAULTS } from '../../src/domain/application-fields';
import { planSend, summarize } from '../../src/domain/send-plan';

const device = (
  device_sid: string,
  application_sid: string,
  type: 'android' | 'ios' | 'web',
  environment: 'production' | 'development' = 'production',
) => ({ device_sid, application_sid, type, environment, token: `t-${device_sid}` });

describe('planSend', () => {
  const apps = new Map([
    ['A', { ...APPLICATION_DEFAULTS, google_credentials: 'g', apns_p12: 'p' }],
    ['B', { ...APPLICATION_DEFAULTS, google_credentials: 'g' }],
  ]);

  test('groups by application and route; settles unknown and credential-less recipients; duplicates count once', () => {
    const devices = [
      device('1', 'A', 'android'),
      device('2', 'A', 'web'),
      device('3', 'A', 'ios'),
      device('4', 'A', 'ios', 'development'),
      device('5', 'B', 'ios'),
      device('6', 'GONE', 'web'),
    ];
    const { groups, settled } = planSend(['1', '2', '3', '4', '5', '6', 'x', '1'], devices, apps);
    expect(groups.map((g) => [g.application_sid, g.route, g.devices.map((d) => d.device_sid)])).toEqual([
      ['A', 'fcm', ['1', '2']],
      ['A', 'apns:production', ['3']],
      ['A', 'apns:development', ['4']],
    ]);
    expect(Object.fromEntries(settled)).toEqual({ 5: 'no_credentials', 6: 'not_found', x: 'not_found' });
  });

  test('summarize counts', () => {
    expect(
      summarize(
        new Map([
          ['a', 'success'],
          ['b', 'unregistered'],
          ['c', 'success'],
        ]),
      ),
    ).toEqual({ failure: 1, results: { a: 'success', b: 'unregistered', c: 'success' }, success: 2 });
  });
});
