import { randomBytes } from 'node:crypto';
import { sealCredentials } from '../../src/secrets/application-secrets';
import { KeyRing } from '@patchbay/platform';
import { OpenedCredentials } from '../../src/secrets/opened-credentials';
import type { ApplicationDoc } from '../../src/domain/documents';

const ring = new KeyRing(randomBytes(32));
const other = new KeyRing(randomBytes(32));

function doc(google: string, version: number, extra: Partial<ApplicationDoc> = {}, sealWith = ring): ApplicationDoc {
  return {
    application_sid: 'app-1',
    partner_sid: 'p-1',
    date_created: new Date(0),
    apns_p12_expiration: null,
    name: 'n',
    credentials_revision: `rev-${version}`,
    credentials_version: version,
    ...sealCredentials(sealWith, 'app-1', {
      google_credentials: google,
      apns_p12: null,
      apns_p12_password: null,
      apns_p8: null,
    }),
    ...extra,
  } as ApplicationDoc;
}

test('opens once per credentials version: later sends of that version take the kept values, other fields fresh', () => {
  const opened = new OpenedCredentials(ring);
  expect(opened.open(doc('G1', 1)).app.google_credentials).toBe('G1');
  // Same version, but sealed with a key the ring lacks: were it opened again, it would not open.
  const same = opened.open(doc('G1', 1, { name: 'renamed' }, other));
  expect(same.app.google_credentials).toBe('G1');
  expect(same.unreadable).toEqual([]);
  expect(same.app.name).toBe('renamed');
});

test('a new credentials version (an update) opens again', () => {
  const opened = new OpenedCredentials(ring);
  expect(opened.open(doc('G1', 1)).app.google_credentials).toBe('G1');
  expect(opened.open(doc('G2', 2)).app.google_credentials).toBe('G2');
  const broken = opened.open(doc('G3', 3, {}, other));
  expect(broken.app.google_credentials).toBeNull();
  expect(broken.unreadable.map((u) => u.field)).toEqual(['google_credentials']);
});
