import { CREDENTIAL_FIELDS, type ApplicationFields, type CredentialField } from '../domain/application-fields';
import type { ApplicationDoc, OpenedApplication } from '../domain/documents';
import type { KeyRing } from '@patchbay/platform';
import { isSealedSecret, type StoredSecret } from '@patchbay/platform';
import { openSecret, sealSecret } from '@patchbay/platform';
import { SecretError, TamperedSecretError } from '@patchbay/platform';

/** The stored form of an application's credential fields. */
export type StoredCredentials = Pick<ApplicationDoc, CredentialField>;

/** A credential field that did not open, and why (never the value). */
export interface UnreadableSecret {
  field: CredentialField;
  kid: string | null;
  reason: string;
}

/** APNs needs all of these together: one that does not open disables APNs for the application. */
const APNS_FIELDS: readonly CredentialField[] = ['apns_p12', 'apns_p12_password', 'apns_p8'];

/**
 * What a sealed value is bound to (GCM additional data): its application and field, so a value
 * copied into another application's document, or into another field, does not open.
 */
export const secretContext = (applicationSid: string, field: CredentialField): string =>
  `push_applications/${applicationSid}/${field}`;

/**
 * One stored field in plaintext: null stays null, a plain string (stored before encryption) is
 * returned as is, a sealed value is opened. Throws SecretError when it does not open.
 */
export function openStoredField(
  ring: KeyRing,
  applicationSid: string,
  field: CredentialField,
  stored: StoredSecret | undefined,
): string | null {
  if (stored === null || stored === undefined) return null;
  if (typeof stored === 'string') return stored;
  if (!isSealedSecret(stored)) throw new TamperedSecretError('not a sealed value', null);
  return openSecret(ring, stored, secretContext(applicationSid, field));
}

/** Whether `field` is one of the write-only, sealed credential fields. */
export const isCredentialField = (field: string): field is CredentialField =>
  (CREDENTIAL_FIELDS as readonly string[]).includes(field);

/** One credential field sealed with the current key, bound to its application and field (null stays null). */
export function sealField(
  ring: KeyRing,
  applicationSid: string,
  field: CredentialField,
  value: string | null,
): StoredSecret {
  return value === null ? null : sealSecret(ring, value, secretContext(applicationSid, field));
}

/** Seals every credential field that is set with the current key (null stays null). */
export function sealCredentials(
  ring: KeyRing,
  applicationSid: string,
  fields: Pick<ApplicationFields, CredentialField>,
): StoredCredentials {
  const seal = (field: CredentialField) => sealField(ring, applicationSid, field, fields[field]);
  return {
    google_credentials: seal('google_credentials'),
    apns_p12: seal('apns_p12'),
    apns_p12_password: seal('apns_p12_password'),
    apns_p8: seal('apns_p8'),
  };
}

/** Every credential field opened; the ones that do not open are listed and left null. */
export function openCredentials(
  ring: KeyRing,
  doc: ApplicationDoc,
): { values: Pick<ApplicationFields, CredentialField>; unreadable: UnreadableSecret[] } {
  const unreadable: UnreadableSecret[] = [];
  const open = (field: CredentialField): string | null => {
    try {
      return openStoredField(ring, doc.application_sid, field, doc[field]);
    } catch (err) {
      if (!(err instanceof SecretError)) throw err;
      unreadable.push({ field, kid: err.kid, reason: err.message });
      return null;
    }
  };
  const values = {
    google_credentials: open('google_credentials'),
    apns_p12: open('apns_p12'),
    apns_p12_password: open('apns_p12_password'),
    apns_p8: open('apns_p8'),
  };
  return { values, unreadable };
}

/**
 * An application ready to build provider clients from. A platform whose credentials do not
 * open (all of APNs when any APNs secret does not) is left without credentials, so its devices
 * get `no_credentials` while the other platform keeps working.
 */
export function openApplication(
  ring: KeyRing,
  doc: ApplicationDoc,
): { app: OpenedApplication; unreadable: UnreadableSecret[] } {
  const { values, unreadable } = openCredentials(ring, doc);
  if (unreadable.some((u) => APNS_FIELDS.includes(u.field))) for (const field of APNS_FIELDS) values[field] = null;
  return { app: { ...doc, ...values }, unreadable };
}
