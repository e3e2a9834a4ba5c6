import { createHash } from 'node:crypto';
import { UnprocessableError } from '@patchbay/contracts';
import type { ApplicationFields, CredentialField } from '../domain/application-fields';
import type { ApplicationDoc } from '../repo';
import type { KeyRing } from './key-ring';
import { openCredentials, sealCredentials, type StoredCredentials, type UnreadableSecret } from './application-secrets';

interface Kept extends UnreadableSecret { placeholder: string; stored: ApplicationDoc[CredentialField] }

/**
 * An application's fields opened for an update. A credential that does not open (its key is
 * not configured) stands in as a placeholder: a write that leaves it alone (absent, or the mask)
 * keeps the stored value untouched, so a rename never destroys a credential an operator can still
 * recover by adding its key back; a write that replaces or clears it works as usual.
 */
export class EditableCredentials {
  readonly fields: ApplicationFields;
  readonly unreadable: UnreadableSecret[];
  private readonly kept = new Map<CredentialField, Kept>();

  constructor(private readonly ring: KeyRing, private readonly doc: ApplicationDoc) {
    const { values, unreadable } = openCredentials(ring, doc);
    this.unreadable = unreadable;
    for (const u of unreadable) {
      // Deterministic, so repeated updates do not look like credential changes to one another.
      const digest = createHash('sha256').update(JSON.stringify(doc[u.field])).digest('hex').slice(0, 16);
      const placeholder = `\u0000unreadable:${u.field}:${u.kid ?? '-'}:${digest}`;
      this.kept.set(u.field, { ...u, placeholder, stored: doc[u.field] });
      values[u.field] = placeholder;
    }
    this.fields = { name: doc.name, apns_id: doc.apns_id, apns_key_id: doc.apns_key_id, apns_team_id: doc.apns_team_id, apns_topic: doc.apns_topic, ...values };
  }

  /**
   * 422 when a write changes one half of the certificate pair (`apns_p12`, `apns_p12_password`)
   * while keeping the other half that does not open: the pair could not be checked.
   */
  assertWritable(next: ApplicationFields): void {
    const pair: Array<[CredentialField, CredentialField]> = [['apns_p12', 'apns_p12_password'], ['apns_p12_password', 'apns_p12']];
    for (const [field, other] of pair) {
      const kept = this.kept.get(field);
      if (kept && next[field] === kept.placeholder && next[other] !== this.fields[other]) {
        throw UnprocessableError.field(field, `${field} was encrypted with a key this server does not have (key id ${kept.kid ?? 'unknown'}): send it again together with ${other}`);
      }
    }
  }

  /** The credential fields to store: new values sealed with the current key, kept ones as they were. */
  seal(next: ApplicationFields): StoredCredentials {
    const keep = [...this.kept.values()].filter((k) => next[k.field] === k.placeholder);
    const fresh = { ...next };
    for (const k of keep) fresh[k.field] = null;
    const out = sealCredentials(this.ring, this.doc.application_sid, fresh);
    for (const k of keep) out[k.field] = k.stored;
    return out;
  }
}
