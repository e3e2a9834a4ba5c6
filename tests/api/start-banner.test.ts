/**
 * The start banner names the first partner and how to reach the API, but prints a password or a
 * token only when Patchbay generated it: the harness sets both through PATCHBAY_BOOTSTRAP_*, so
 * neither may appear anywhere in what the instance printed while starting.
 */
import { instance } from '../harness/api';

test('credentials set through the environment are named, never printed', () => {
  const { startupOutput, password, token, login } = instance();
  expect(startupOutput).toContain('Patchbay is running.');
  expect(startupOutput).toMatch(new RegExp(`Login:\\s+${login}`));
  expect(startupOutput).toContain('(as set in PATCHBAY_BOOTSTRAP_PASSWORD)');
  expect(startupOutput).toContain('(as set in PATCHBAY_BOOTSTRAP_TOKEN)');
  expect(startupOutput).not.toContain(password);
  expect(startupOutput).not.toContain(token);
});
