import type { ApplicationDoc, OpenedApplication } from '../domain/documents';
import type { KeyRing } from '@patchbay/platform';
import { openApplication, type UnreadableSecret } from './application-secrets';

type Opened = Pick<OpenedApplication, 'google_credentials' | 'apns_p12' | 'apns_p12_password' | 'apns_p8'>;
interface Entry {
  version: number;
  revision: string;
  values: Opened;
  unreadable: UnreadableSecret[];
}

/** Applications whose opened credentials are kept; past it the least recently opened is dropped. */
const MAX_KEPT = 1000;

/**
 * The applications' credentials, opened once per credentials version instead of on every send: a
 * send reads the application document (fresh, for its other fields) and takes the opened values
 * kept for its `credentials_version` and `credentials_revision`. An update bumps the version, so a
 * document read after it opens again; the kept plaintext is what the provider clients built from
 * it already hold in memory. A deleted application's entry is never used again (its document is
 * not found) and leaves with the least recently opened.
 */
export class OpenedCredentials {
  private readonly kept = new Map<string, Entry>();

  constructor(private readonly ring: KeyRing) {}

  open(doc: ApplicationDoc): { app: OpenedApplication; unreadable: UnreadableSecret[] } {
    const hit = this.kept.get(doc.application_sid);
    if (hit && hit.version === doc.credentials_version && hit.revision === doc.credentials_revision) {
      this.kept.delete(doc.application_sid);
      this.kept.set(doc.application_sid, hit);
      return { app: { ...doc, ...hit.values }, unreadable: hit.unreadable };
    }
    const { app, unreadable } = openApplication(this.ring, doc);
    const values: Opened = {
      google_credentials: app.google_credentials,
      apns_p12: app.apns_p12,
      apns_p12_password: app.apns_p12_password,
      apns_p8: app.apns_p8,
    };
    this.kept.delete(doc.application_sid);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(doc.application_sid, {
      version: doc.credentials_version,
      revision: doc.credentials_revision,
      values,
      unreadable,
    });
    return { app, unreadable };
  }
}
