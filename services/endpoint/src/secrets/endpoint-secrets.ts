import {
  SecretError,
  TamperedSecretError,
  isSealedSecret,
  openSecret,
  sealSecret,
  type Doc,
  type KeyRing,
} from '@patchbay/platform';

/**
 * The secrets of an endpoint, sealed at rest like push and external-storage credentials
 * (packages/platform/src/secrets: AES-256-GCM, a key id per value, ENDPOINT_CREDENTIALS_KEY and its
 * old keys): the outbound SIP password, each address's SIP password, and the password generated for
 * a hosted application (`properties.password`: the Voicemail callbacks' HMAC key too). The API
 * returns them as before: they are opened when read.
 */
export const SECRET_PATHS = ['out_sip_password', 'addresses.sip_password', 'properties.password'] as const;
export type SecretPath = (typeof SECRET_PATHS)[number];

/**
 * What a sealed value is bound to (GCM additional data): its endpoint and field, so a value copied
 * into another endpoint's document, or into another field, does not open.
 */
export const secretContext = (endpointSid: string, path: SecretPath): string => `endpoints/${endpointSid}/${path}`;

/** A stored value turned into another (sealed, opened, re-sealed); null and absent stay as they are. */
export type SecretStep = (value: unknown, path: SecretPath) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The top-level fields of `doc` that hold secrets (`out_sip_password`, `addresses`, `properties`),
 * each with `step` applied to its secrets; other fields are left out. Only what is present is
 * touched, so a projected document or a `$set` works too.
 */
export function mapSecretFields(doc: Doc, step: SecretStep): Doc {
  const out: Doc = {};
  const present = (v: unknown) => v !== null && v !== undefined;
  if ('out_sip_password' in doc)
    out.out_sip_password = present(doc.out_sip_password)
      ? step(doc.out_sip_password, 'out_sip_password')
      : doc.out_sip_password;
  if (Array.isArray(doc.addresses))
    out.addresses = doc.addresses.map((a: unknown) =>
      isObject(a) && present(a.sip_password)
        ? { ...a, sip_password: step(a.sip_password, 'addresses.sip_password') }
        : a,
    );
  if (isObject(doc.properties))
    out.properties = present(doc.properties.password)
      ? { ...doc.properties, password: step(doc.properties.password, 'properties.password') }
      : doc.properties;
  return out;
}

/** Seals every plain secret of `doc` with the current key (sealed values are kept as they are). */
export function sealSecrets(ring: KeyRing, endpointSid: string, doc: Doc): Doc {
  return mapSecretFields(doc, (v, path) =>
    typeof v === 'string' ? sealSecret(ring, v, secretContext(endpointSid, path)) : v,
  );
}

/** One stored value in plaintext: a plain string (written before sealing) as is, a sealed one opened. */
export function openStored(ring: KeyRing, endpointSid: string, path: SecretPath, stored: unknown): string {
  if (typeof stored === 'string') return stored;
  if (!isSealedSecret(stored)) throw new TamperedSecretError('not a sealed value', null);
  return openSecret(ring, stored, secretContext(endpointSid, path));
}

/** A secret that did not open, and why (never the value). */
export interface UnreadableSecret {
  path: SecretPath;
  kid: string | null;
  reason: string;
}

/** Every secret of `doc` opened; one that does not open becomes null and is reported. */
export function openSecrets(
  ring: KeyRing,
  endpointSid: string,
  doc: Doc,
  unreadable: (u: UnreadableSecret) => void,
): Doc {
  return mapSecretFields(doc, (v, path) => {
    try {
      return openStored(ring, endpointSid, path, v);
    } catch (err) {
      if (!(err instanceof SecretError)) throw err;
      unreadable({ path, kid: err.kid, reason: err.message });
      return null;
    }
  });
}
