import { errorItem, type ErrorItem, type ExternalStoreType } from '@patchbay/contracts';

/** The `external_attributes` fields of each type (docs/interface-notes.md, External containers). */
const FIELDS: Record<ExternalStoreType, { required: string; optional: string[]; credentials: string[][] }> = {
  aws_s3: {
    required: 'bucket',
    optional: ['region', 'endpoint', 'prefix'],
    credentials: [['access_key_id', 'secret_access_key']],
  },
  gcp_storage: { required: 'bucket', optional: ['endpoint', 'prefix'], credentials: [['service_account_json']] },
  azure_blob: {
    required: 'container',
    optional: ['endpoint', 'prefix'],
    credentials: [['account_name', 'account_key'], ['sas_token']],
  },
};

export const MASK = '********';

/** Attributes as sent: strings, and `credentials` a map of strings (the schema checked that much). */
export type PlainAttributes = Record<string, unknown> & { credentials?: Record<string, string> | null };

/**
 * Checks the attributes of an external container of `type` against its fields: the required name
 * (`bucket`, Azure's `container`), no field of another type, credentials of one accepted shape,
 * complete. Every problem names `external_attributes` and says which field (422).
 */
export function checkExternalAttributes(type: ExternalStoreType, attrs: PlainAttributes): ErrorItem[] {
  const spec = FIELDS[type];
  const errors: ErrorItem[] = [];
  const say = (msg: string) => errors.push(errorItem(msg, 'external_attributes'));
  if (typeof attrs[spec.required] !== 'string' || attrs[spec.required] === '')
    say(`${spec.required} is required for a container of type ${type}`);
  for (const key of Object.keys(attrs)) {
    if (key !== spec.required && key !== 'credentials' && !spec.optional.includes(key))
      say(
        `${key} is not a field of a container of type ${type} (fields: ` +
          `${[spec.required, ...spec.optional, 'credentials'].join(', ')})`,
      );
  }
  const creds = attrs.credentials;
  if (creds) {
    const given = Object.keys(creds).sort();
    const shape = spec.credentials.find((s) => [...s].sort().join() === given.join());
    if (!shape)
      say(
        `credentials of a container of type ${type} are ` +
          `${spec.credentials.map((s) => `{${s.join(', ')}}`).join(' or ')}`,
      );
    for (const [k, v] of Object.entries(creds)) if (v === '' || v === MASK) say(`credentials.${k} must be given`);
  }
  return errors;
}

/** The attributes without credentials: where the blobs are. */
export function locationOf(attrs: PlainAttributes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) if (k !== 'credentials' && typeof v === 'string') out[k] = v;
  return out;
}

/** Whether two locations are the same place (same fields, same values). */
export function sameLocation(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? '') === (b[k] ?? ''));
}

/**
 * The attributes a client sent, with `"********"` (what it read back) replaced by the credential
 * stored under that key: a client that sends the container back as it got it keeps its credentials.
 */
export function keepMaskedCredentials(
  next: PlainAttributes | null,
  stored: Record<string, string> | null,
): PlainAttributes | null {
  const creds = next?.credentials;
  if (!next || !creds) return next;
  const merged = Object.fromEntries(
    Object.entries(creds).flatMap(([k, v]): Array<[string, string]> => {
      const kept = v === MASK ? stored?.[k] : v;
      return kept === undefined ? [] : [[k, kept]];
    }),
  );
  return { ...next, credentials: merged };
}
