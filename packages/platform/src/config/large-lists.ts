import { Type } from '@sinclair/typebox';

/**
 * How a service that answers lists bounds the large ones it builds at once (records' call and
 * message records, storage's files, push devices, endpoints; `ListGate` of @patchbay/query):
 * every such service reads the same keys, so one setting means one thing everywhere.
 */
export const LargeListConfig = {
  /** A list asking for more items than this (`limit`) is large; smaller lists are never limited. */
  LIST_LARGE_LIMIT: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  /**
   * Large lists one partner may have in progress at once in one service (building, and its reply
   * on its way); past it a list is answered 429 with Retry-After, naming `limit`.
   */
  LIST_LARGE_PER_PARTNER: Type.Integer({ minimum: 1, maximum: 1000, default: 2 }),
  /** Large lists one service process has in progress at once, all partners together; past it, 503 with Retry-After. */
  LIST_LARGE_TOTAL: Type.Integer({ minimum: 1, maximum: 10000, default: 8 }),
};

/** A service's large-list bounds (the shape of @patchbay/query's ListGateLimits). */
export interface LargeListLimits {
  largeOver: number;
  perPartner: number;
  total: number;
}

/** The one reading of LargeListConfig. */
export function largeListLimits(c: {
  LIST_LARGE_LIMIT: number;
  LIST_LARGE_PER_PARTNER: number;
  LIST_LARGE_TOTAL: number;
}): LargeListLimits {
  return Object.freeze({
    largeOver: c.LIST_LARGE_LIMIT,
    perPartner: c.LIST_LARGE_PER_PARTNER,
    total: c.LIST_LARGE_TOTAL,
  });
}

/** The defaults of LargeListConfig, for a service started without them (tests). */
export const DEFAULT_LARGE_LISTS: LargeListLimits = largeListLimits({
  LIST_LARGE_LIMIT: Number(LargeListConfig.LIST_LARGE_LIMIT.default),
  LIST_LARGE_PER_PARTNER: Number(LargeListConfig.LIST_LARGE_PER_PARTNER.default),
  LIST_LARGE_TOTAL: Number(LargeListConfig.LIST_LARGE_TOTAL.default),
});
