import { banner, type BootstrapResult } from '../src/bootstrap';

const base: BootstrapResult = {
  created: true,
  login: 'admin',
  partner: { partner_sid: 'p-1' } as BootstrapResult['partner'],
  password: null,
  access_token: null,
  password_from_env: false,
  token_from_env: false,
};

test('a password and token Patchbay generated are printed once, with a command to try', () => {
  const text = banner({ ...base, password: 'gen-pass', access_token: 'gen-token' }, 'http://api', 'http://files');
  expect(text).toContain('Password:      gen-pass');
  expect(text).toContain('Access token:  gen-token');
  expect(text).toContain('Bearer gen-token');
});

test('credentials the operator set are named, not printed; the try-command uses the variable', () => {
  const text = banner(
    { ...base, created: false, password_from_env: true, token_from_env: true },
    'http://api',
    'http://files',
  );
  expect(text).toContain('(as set in PATCHBAY_BOOTSTRAP_PASSWORD)');
  expect(text).toContain('(as set in PATCHBAY_BOOTSTRAP_TOKEN)');
  expect(text).toContain('Bearer $PATCHBAY_BOOTSTRAP_TOKEN');
});

test('on a later start without them, it says how to get them', () => {
  const text = banner({ ...base, created: false }, 'http://api', 'http://files');
  expect(text).toMatch(/Password:\s+\(unchanged/);
  expect(text).toMatch(/Access token:\s+\(issued on first start only/);
  expect(text).not.toContain('Try:');
});

test("the console is named, on the API's origin", () => {
  expect(banner(base, 'https://api.example.com/core/v2', 'https://files.example.com')).toContain(
    'Console:       https://api.example.com/console',
  );
});
