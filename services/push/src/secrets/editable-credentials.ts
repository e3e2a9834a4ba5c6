import { createHash } from 'node:crypto';
import { UnprocessableError } from '@patchbay/contracts';
import { APPLICATION_FIELDS, type ApplicationFields, type CredentialField } from '../domain/application-fields';
import type { ApplicationDoc } from '../domain/documents';
import type { KeyRing } from '@patchbay/platform';
import { isSealedSecret } from '@patchbay/platform';
import { isCredentialField, openCredentials, sealField, type UnreadableSecret } from './application-secrets';

interface Kept extends UnreadableSecret {
  placeholder: string;
}

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

  constructor(
    private readonly ring: KeyRing,
    private readonly doc: ApplicationDoc,
  ) {
    const { values, unreadable } = openCredentials(ring, doc);
    this.unreadable = unreadable;
    for (const u of unreadable) {
      // Deterministic, so repeated updates do not look like credential changes to one another.
      const digest = createHash('sha256').update(JSON.stringify(doc[u.field])).digest('hex').slice(0, 16);
      const placeholder = `\u0000unreadable:${u.field}:${u.kid ?? '-'}:${digest}`;
      this.kept.set(u.field, { ...u, placeholder });
      values[u.field] = placeholder;
    }
    this.fields = {
      name: doc.name,
      apns_id: doc.apns_id,
      apns_key_id: doc.apns_key_id,
      apns_team_id: doc.apns_team_id,
      apns_topic: doc.apns_topic,
      ...values,
    };
  }

  /**
   * 422 when a write changes one half of the certificate pair (`apns_p12`, `apns_p12_password`)
   * while keeping the other half that does not open: the pair could not be checked.
   */
  assertWritable(next: ApplicationFields): void {
    const pair: Array<[CredentialField, CredentialField]> = [
      ['apns_p12', 'apns_p12_password'],
      ['apns_p12_password', 'apns_p12'],
    ];
    for (const [field, other] of pair) {
      const kept = this.kept.get(field);
      if (kept && next[field] === kept.placeholder && next[other] !== this.fields[other]) {
        throw UnprocessableError.field(
          field,
          `${field} was encrypted with a key this server does not have (key id ` +
            `${kept.kid ?? 'unknown'}): send it again together with ${other}`,
        );
      }
    }
  }

  /**
   * What to write for an update from `this.fields` to `next`: every field whose value changes, with
   * credentials sealed under the current key (null stays null). A credential that keeps its value is
   * written again only when it is stored in plaintext (from before encryption) or under an older
   * key; one that does not open and is left alone (its placeholder) is not written at all.
   */
  changes(next: ApplicationFields): Partial<ApplicationDoc> {
    const out: Record<string, unknown> = {};
    for (const field of APPLICATION_FIELDS) {
      const value = next[field];
      if (!isCredentialField(field)) {
        if (value !== this.fields[field]) out[field] = value;
      } else if (value !== this.fields[field] || (!this.kept.has(field) && this.staleSeal(field))) {
        out[field] = sealField(this.ring, this.doc.application_sid, field, value);
      }
    }
    // Only ApplicationFields' keys, each with its value, or for a credential its StoredSecret.
    return out as Partial<ApplicationDoc>;
  }

  /** The stored value is plaintext, or sealed under a key other than the current one. */
  private staleSeal(field: CredentialField): boolean {
    const stored = this.doc[field];
    return stored !== null && stored !== undefined && !(isSealedSecret(stored) && stored.kid === this.ring.current.kid);
  }
}
