import type { Collection } from '@patchbay/platform';
import type { ListSource } from '@patchbay/query';
import type { EndpointDoc } from './domain/documents';

type Filter = Record<string, unknown>;

/**
 * The collection as one partner sees it, for `runList`. The partner condition is put FIRST at the
 * top level of every query rather than inside `$and` (what `runList`'s own `baseFilter` does): the
 * embedded store picks an index only from top-level equality conditions, the last one it finds, so
 * `{partner_sid, 'addresses.ip'}` is served by the `addresses.ip` index instead of scanning every
 * endpoint of the partner. MongoDB plans both shapes alike. When the client's filter names
 * `partner_sid` itself, both conditions go into `$and`.
 */
export function partnerScoped(collection: Collection<EndpointDoc>, partnerSid: string): ListSource<EndpointDoc> {
  const scope = (filter: Filter): Filter =>
    Object.hasOwn(filter, 'partner_sid')
      ? { $and: [{ partner_sid: partnerSid }, filter] }
      : { partner_sid: partnerSid, ...filter };
  return {
    find: (filter, opts) => collection.find(scope(filter), opts),
    countDocuments: (filter) => collection.countDocuments(scope(filter)),
    findOne: (filter, opts) => collection.findOne(scope(filter), opts),
  };
}
