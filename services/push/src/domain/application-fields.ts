import { createHash } from 'node:crypto';
import {
  CREDENTIAL_MASK,
  UnprocessableError,
  errorItem,
  type ErrorItem,
  type PushApplicationWrite,
} from '@patchbay/contracts';
import { CredentialError, decodeGoogleCredentials, openP12, readP8 } from './credentials';

/** The writable fields of an application, as stored (credentials included). */
export interface ApplicationFields {
  name: string;
  apns_id: string | null;
  apns_key_id: string | null;
  apns_team_id: string | null;
  apns_topic: string | null;
  google_credentials: string | null;
  apns_p12: string | null;
  apns_p12_password: string | null;
  apns_p8: string | null;
}

export const APPLICATION_DEFAULTS: Readonly<ApplicationFields> = Object.freeze({
  name: 'N/A',
  apns_id: null,
  apns_key_id: null,
  apns_team_id: null,
  apns_topic: null,
  google_credentials: null,
  apns_p12: null,
  apns_p12_password: null,
  apns_p8: null,
});
/** Every field of an application, in the defaults' order. */
// Object.keys types its result string[]; the keys of the defaults are exactly ApplicationFields'.
export const APPLICATION_FIELDS = Object.keys(APPLICATION_DEFAULTS) as ReadonlyArray<keyof ApplicationFields>;

/** Write-only fields: returned masked, never logged. */
export const CREDENTIAL_FIELDS = ['google_credentials', 'apns_p12', 'apns_p12_password', 'apns_p8'] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

/**
 * The fields after a write. PATCH (and create) changes only what the body names; PUT (`whole`)
 * starts from the defaults. `null` clears; the mask `"********"` keeps the stored credential, so a
 * client can send back what it read. Clearing `apns_p12` clears its password too.
 */
export function mergeApplication(
  current: ApplicationFields | null,
  input: PushApplicationWrite,
  whole: boolean,
): ApplicationFields {
  const next: ApplicationFields = { ...(whole || !current ? APPLICATION_DEFAULTS : current) };
  for (const key of APPLICATION_FIELDS) {
    const value = input[key];
    if (value === undefined) continue;
    const keepStored = value === CREDENTIAL_MASK && (CREDENTIAL_FIELDS as readonly string[]).includes(key);
    Object.assign(next, { [key]: keepStored ? (current?.[key] ?? null) : value });
  }
  if (next.apns_p12 === null) next.apns_p12_password = null;
  return next;
}

export interface CheckedApplication {
  fields: ApplicationFields;
  apns_p12_expiration: Date | null;
  /** Changes whenever anything a provider client is built from changes. */
  credentials_revision: string;
}

/**
 * Checks the credentials that changed (unchanged ones were checked when written) and derives
 * `apns_p12_expiration`. 422 naming every field that does not hold: `google_credentials` that is
 * not a Base64 service account, an `apns_p12` that does not open with its password, an `apns_p8`
 * that is not a P-256 key or lacks `apns_key_id`/`apns_team_id`.
 */
export function checkApplication(
  fields: ApplicationFields,
  current: { fields: ApplicationFields; apns_p12_expiration: Date | null } | null,
): CheckedApplication {
  const problems: ErrorItem[] = [];
  const next = { ...fields };
  const changed = (k: keyof ApplicationFields) => !current || current.fields[k] !== fields[k];
  const attempt = (field: string, check: () => void) => {
    try {
      check();
    } catch (err) {
      if (!(err instanceof CredentialError)) throw err;
      problems.push(errorItem(err.message, field));
    }
  };
  if (next.google_credentials !== null && changed('google_credentials')) {
    attempt('google_credentials', () => {
      decodeGoogleCredentials(next.google_credentials as string);
    });
  }
  let expiration = current?.apns_p12_expiration ?? null;
  if (next.apns_p12 === null) expiration = null;
  else if (changed('apns_p12') || changed('apns_p12_password')) {
    attempt('apns_p12', () => {
      expiration = openP12(next.apns_p12 as string, next.apns_p12_password ?? '').expiration;
    });
  }
  if (next.apns_p8 !== null) {
    if (changed('apns_p8'))
      attempt('apns_p8', () => {
        next.apns_p8 = readP8(next.apns_p8 as string);
      });
    if (!next.apns_key_id) problems.push(errorItem('apns_key_id is required with apns_p8', 'apns_key_id'));
    if (!next.apns_team_id) problems.push(errorItem('apns_team_id is required with apns_p8', 'apns_team_id'));
  }
  if (problems.length > 0) throw new UnprocessableError({ errors: problems });
  return { fields: next, apns_p12_expiration: expiration, credentials_revision: credentialsRevision(next) };
}

/**
 * A digest of what provider clients are built from; a client built from another revision is stale.
 * Never stored as is: the push service keys it (KeyRing.revision) before it goes to the database.
 */
export function credentialsRevision(f: ApplicationFields): string {
  const parts = [
    f.google_credentials,
    f.apns_p12,
    f.apns_p12_password,
    f.apns_p8,
    f.apns_key_id,
    f.apns_team_id,
    f.apns_topic,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** Which platforms an application can send to. APNs token auth needs a topic (the bundle ID). */
export function platformsOf(f: ApplicationFields): { fcm: boolean; apns: boolean } {
  const apnsToken = f.apns_p8 !== null && !!f.apns_key_id && !!f.apns_team_id && !!f.apns_topic;
  return { fcm: f.google_credentials !== null, apns: f.apns_p12 !== null || apnsToken };
}
