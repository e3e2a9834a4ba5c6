import type {
  Collection,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  KeyRing,
  Logger,
  Sort,
  Update,
  UpdateResult,
} from '@patchbay/platform';
import type { EndpointDoc } from '../domain/documents';
import { openSecrets, sealSecrets } from './endpoint-secrets';

/** Keys of a `$set` that reach into a secret without replacing its whole top-level field. */
const PARTIAL_SECRET_KEY = /^(addresses\.|properties\.password$|out_sip_password\.)/;

/**
 * The endpoints collection with its secrets sealed at rest: every write seals them (whole
 * documents, and the `out_sip_password`, `addresses` and `properties` of a `$set`), every read opens
 * them, so the rest of the service, and the API, see plaintext. A secret that does not open (its
 * key is not configured) reads as null and is logged with the endpoint and key id. Filters never
 * name a secret (the list spec filters on none), so queries pass through untouched.
 */
export class SealedEndpoints implements Collection<EndpointDoc> {
  constructor(
    private readonly raw: Collection<Doc>,
    private readonly ring: KeyRing,
    private readonly log: Logger,
  ) {}

  private seal(doc: Doc): Doc {
    return { ...doc, ...sealSecrets(this.ring, String(doc.endpoint_sid), doc) };
  }

  private unsealOrNull(doc: Doc | null): EndpointDoc | null {
    return doc ? this.unseal(doc) : null;
  }

  private unseal(doc: Doc): EndpointDoc {
    const sid = String(doc.endpoint_sid);
    const opened = openSecrets(this.ring, sid, doc, (u) =>
      this.log.error(
        { endpoint_sid: sid, partner_sid: doc.partner_sid, field: u.path, kid: u.kid, reason: u.reason },
        'endpoint secret cannot be decrypted: add its key to ENDPOINT_CREDENTIALS_OLD_KEYS and restart',
      ),
    );
    // why the cast: the raw collection is a Collection<Doc> because a sealed document is not an EndpointDoc
    // (its secret fields hold sealed values); with its secrets opened it is the EndpointDoc the service wrote.
    return { ...doc, ...opened } as EndpointDoc;
  }

  /** An update with the secrets of its `$set` sealed for the one endpoint `filter` names. */
  private sealUpdate(filter: Filter, update: Update): Update {
    if (!update.$set) return update;
    const keys = Object.keys(update.$set);
    if (keys.some((k) => PARTIAL_SECRET_KEY.test(k)))
      throw new Error(
        'an endpoint secret is written through its whole field (out_sip_password, addresses, properties)',
      );
    const touches = keys.some((k) => k === 'out_sip_password' || k === 'addresses' || k === 'properties');
    if (!touches) return update;
    if (typeof filter.endpoint_sid !== 'string')
      throw new Error('an update that writes endpoint secrets names its endpoint_sid');
    return { ...update, $set: { ...update.$set, ...sealSecrets(this.ring, filter.endpoint_sid, update.$set) } };
  }

  insertOne(doc: EndpointDoc): Promise<void> {
    return this.raw.insertOne(this.seal(doc));
  }
  insertMany(docs: EndpointDoc[]): Promise<void> {
    return this.raw.insertMany(docs.map((d) => this.seal(d)));
  }
  async findOne(filter: Filter, opts?: Pick<FindOptions, 'projection' | 'sort'>): Promise<EndpointDoc | null> {
    return this.unsealOrNull(await this.raw.findOne(filter, opts));
  }
  async find(filter: Filter, opts?: FindOptions): Promise<EndpointDoc[]> {
    return (await this.raw.find(filter, opts)).map((d) => this.unseal(d));
  }
  countDocuments(filter: Filter): Promise<number> {
    return this.raw.countDocuments(filter);
  }
  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.raw.updateOne(filter, this.sealUpdate(filter, update));
  }
  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.raw.updateMany(filter, this.sealUpdate(filter, update));
  }
  async findOneAndUpdate(filter: Filter, update: Update, opts?: FindOneAndUpdateOptions): Promise<EndpointDoc | null> {
    return this.unsealOrNull(await this.raw.findOneAndUpdate(filter, this.sealUpdate(filter, update), opts));
  }
  replaceOne(filter: Filter, doc: EndpointDoc): Promise<UpdateResult> {
    return this.raw.replaceOne(filter, this.seal(doc));
  }
  deleteOne(filter: Filter): Promise<number> {
    return this.raw.deleteOne(filter);
  }
  deleteMany(filter: Filter): Promise<number> {
    return this.raw.deleteMany(filter);
  }
  createIndex(keys: Sort, opts?: IndexOptions): Promise<void> {
    return this.raw.createIndex(keys, opts);
  }
  dropIndex(keys: Sort): Promise<void> {
    return this.raw.dropIndex(keys);
  }
}
