import {
  hashPassword,
  hashToken,
  newPassword,
  newTokenSecret,
  verifyPassword,
  verifyPasswordOrDecoy,
} from '../../src/domain/secrets';

test('a password hash names its cost and salt, verifies only its password, and differs each time', async () => {
  const a = await hashPassword('correct horse');
  const b = await hashPassword('correct horse');
  expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  expect(a).not.toBe(b);
  expect(await verifyPassword('correct horse', a)).toBe(true);
  expect(await verifyPassword('correct horsE', a)).toBe(false);
  expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
});

test('an unknown login is checked against a decoy and always fails', async () => {
  expect(await verifyPasswordOrDecoy('anything', null)).toBe(false);
  expect(await verifyPasswordOrDecoy('pw-1234567', await hashPassword('pw-1234567'))).toBe(true);
});

test('token secrets are 256 random bits stored as their SHA-256; generated passwords are long', () => {
  const s = newTokenSecret();
  expect(Buffer.from(s, 'base64url')).toHaveLength(32);
  expect(newTokenSecret()).not.toBe(s);
  expect(hashToken(s)).toMatch(/^[0-9a-f]{64}$/);
  expect(hashToken(s)).toBe(hashToken(s));
  expect(newPassword().length).toBeGreaterThanOrEqual(24);
});
