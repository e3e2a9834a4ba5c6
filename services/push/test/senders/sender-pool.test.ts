import { createLogger } from '@patchbay/platform';
import type { PushResult } from '@patchbay/contracts';
import { APPLICATION_DEFAULTS } from '../../src/domain/application-fields';
import type { OpenedApplication } from '../../src/domain/documents';
import { SenderPool } from '../../src/senders/sender-pool';
import type { PushSender } from '../../src/senders/sender';

class StubSender implements PushSender {
  closed = false;
  constructor(
    readonly app: string,
    readonly version: number,
    readonly route: string,
  ) {}
  async send(): Promise<Map<string, PushResult>> {
    return new Map();
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const app = (sid: string, version: number): OpenedApplication => ({
  ...APPLICATION_DEFAULTS,
  application_sid: sid,
  partner_sid: 'p',
  date_created: new Date(),
  apns_p12_expiration: null,
  credentials_revision: `r${version}`,
  credentials_version: version,
});

describe('SenderPool', () => {
  const log = createLogger({ name: 'test', level: 'silent' });
  let built: StubSender[];
  let pool: SenderPool;
  beforeEach(() => {
    built = [];
    pool = new SenderPool(
      (a, route) => {
        const s = new StubSender(a.application_sid, a.credentials_version, route);
        built.push(s);
        return s;
      },
      60_000,
      log,
    );
  });
  afterEach(() => pool.close());

  test('one client per application and route, reused', () => {
    const a = pool.get(app('A', 1), 'fcm');
    expect(pool.get(app('A', 1), 'fcm')).toBe(a);
    expect(pool.get(app('A', 1), 'apns:production')).not.toBe(a);
    expect(pool.get(app('B', 1), 'fcm')).not.toBe(a);
    expect(built).toHaveLength(3);
  });

  test('a newer credentials version closes the old clients; an older document keeps the newer clients', async () => {
    const v1 = pool.get(app('A', 1), 'fcm') as StubSender;
    const v2 = pool.get(app('A', 2), 'fcm') as StubSender;
    expect(v2).not.toBe(v1);
    await new Promise((r) => setImmediate(r));
    expect(v1.closed).toBe(true);
    expect(pool.get(app('A', 1), 'fcm')).toBe(v2);
  });

  test("invalidate closes an application's clients; the next use builds new ones", async () => {
    const first = pool.get(app('A', 1), 'apns:development') as StubSender;
    await pool.invalidate('A', 'deleted');
    expect(first.closed).toBe(true);
    expect(pool.get(app('A', 1), 'apns:development')).not.toBe(first);
  });

  test('a factory that throws (bad configuration) throws from get and caches nothing', () => {
    const failing = new SenderPool(
      () => {
        throw new Error('bad credentials');
      },
      60_000,
      log,
    );
    expect(() => failing.get(app('A', 1), 'fcm')).toThrow('bad credentials');
    void failing.close();
  });
});
