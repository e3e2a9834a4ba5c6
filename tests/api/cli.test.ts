import { instance } from '../harness/api';
import { patchbay } from '../support/cli';

describe('admin command line', () => {
  test('partner create, token create and whoami work over the API', async () => {
    const login = `cli-${Date.now()}`;
    const created = await patchbay(
      '--token',
      instance().token,
      'partner',
      'create',
      '--name',
      'Acme',
      '--login',
      login,
      '--password',
      'cli-password-1',
      '--scopes',
      'countries.read,oauth.read',
    );
    expect(created.code).toBe(0);
    const partner = JSON.parse(created.stdout);
    expect(partner).toMatchObject({ name: 'Acme', login, available_scopes: ['countries.read', 'oauth.read'] });
    const token = await patchbay('token', 'create', '--login', login, '--password', 'cli-password-1');
    expect(token.code).toBe(0);
    const secret = JSON.parse(token.stdout).access_token as string;
    const who = await patchbay('--token', secret, 'whoami');
    expect(JSON.parse(who.stdout).partner_sid).toBe(partner.partner_sid);
    const list = await patchbay('--login', login, '--password', 'cli-password-1', 'countries', 'list', '--limit', '3');
    expect(JSON.parse(list.stdout).count).toBe(3);
  }, 60000);

  test('--idempotency-key: partner create run again with its key prints the first partner, not a 422', async () => {
    const login = `cli-key-${Date.now()}`;
    const key = `cli-${login}`;
    const create = () =>
      patchbay(
        '--token',
        instance().token,
        'partner',
        'create',
        '--login',
        login,
        '--password',
        'cli-password-1',
        '--idempotency-key',
        key,
      );
    const first = await create();
    expect(first.code).toBe(0);
    const again = await create();
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
  }, 60000);

  test('an API error is printed with its fields and exits 1', async () => {
    const res = await patchbay('--token', instance().token, 'countries', 'list', '--limit', '5000');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('HTTP 400');
    expect(res.stderr).toContain('limit');
  }, 60000);
});
