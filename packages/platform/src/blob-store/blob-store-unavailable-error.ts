import { UnavailableError, type ErrorBody } from '@patchbay/contracts';
import { ADDRESS_NOT_ALLOWED, AddressNotAllowedError } from '../net/address-not-allowed-error';
import { fieldOf } from '../basics/error-fields';

/**
 * Why an object storage cannot be used, as a stable code callers can switch on:
 * - `unreachable`: the host does not answer (refused, unknown host, connection reset, TLS refused);
 * - `timeout`: it did not answer in time;
 * - `bucket_missing`: the bucket (Azure: the container) does not exist;
 * - `access_denied`: the credentials are valid but may not do this;
 * - `bad_credentials`: the storage refused the credentials themselves (unknown key, bad signature);
 * - `invalid_config`: the options cannot work (a malformed endpoint, key file or prefix, a wrong region);
 * - `provider_error`: the storage failed in some other way (its own 5xx, corrupted data);
 * - `address_not_allowed`: the outbound-address guard refused to connect (net/address-ranges.ts).
 */
export type BlobStoreFailure =
  | 'unreachable'
  | 'timeout'
  | 'bucket_missing'
  | 'access_denied'
  | 'bad_credentials'
  | 'invalid_config'
  | 'provider_error'
  | 'address_not_allowed';

/** Node's socket and TLS error codes, in plain words. */
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host',
};
const TIMEOUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED', 'TimeoutError']);
const CODE_IN_MESSAGE = new RegExp(`\\b(${[...Object.keys(NETWORK), 'ETIMEDOUT', 'ESOCKETTIMEDOUT'].join('|')})\\b`);

/** What an answer says for each reason: fixed words, never the provider's or the socket's own. */
const ANSWERS: Record<BlobStoreFailure, string> = {
  unreachable: 'the object storage could not be reached; try again later',
  timeout: 'the object storage could not be reached; try again later',
  provider_error: 'the object storage could not be reached; try again later',
  bucket_missing: 'the bucket of the object storage was not found',
  access_denied: 'the object storage refused the credentials',
  bad_credentials: 'the object storage refused the credentials',
  invalid_config: 'the object storage refused this location',
  address_not_allowed: ADDRESS_NOT_ALLOWED,
};

/**
 * An object storage (external container or Patchbay's own bucket) that cannot be used: a 503.
 *
 * The message is the provider's reason in plain words ("bucket 'x' does not exist", "cannot reach
 * http://127.0.0.1:1: connection refused"), never a stack or a credential: it is for logs and for
 * code. What a client is answered (`toBody`) is only the fixed words of its `reason`, never the
 * provider's error code, its text or a socket error (docs/security.md, "External storage errors").
 * `cause` keeps the SDK's own error for logs. Every blob adapter over a remote storage throws this
 * for everything that is not a missing object, a bad range or a bad key.
 */
export class BlobStoreUnavailableError extends UnavailableError {
  readonly reason: BlobStoreFailure;
  constructor(opts: { reason: BlobStoreFailure; message: string; cause?: unknown }) {
    super({ message: opts.message, cause: opts.cause });
    this.reason = opts.reason;
  }

  override toBody(): ErrorBody {
    return { errors: [], message: ANSWERS[this.reason] };
  }

  /**
   * The `address_not_allowed`, `unreachable` or `timeout` error for a failure to talk to `endpoint` at all, found by
   * the
   * socket error code on `err` or its causes (SDKs wrap them differently); undefined when `err` is
   * something else.
   */
  static network(err: unknown, endpoint: string): BlobStoreUnavailableError | undefined {
    if (AddressNotAllowedError.within(err))
      return new BlobStoreUnavailableError({ reason: 'address_not_allowed', message: ADDRESS_NOT_ALLOWED, cause: err });
    for (
      let e: unknown = err, depth = 0;
      e && typeof e === 'object' && depth < 4;
      e = fieldOf(e, 'cause'), depth += 1
    ) {
      const [code, name, message] = [fieldOf(e, 'code'), fieldOf(e, 'name'), fieldOf(e, 'message')];
      // Some SDKs keep only the message of the socket error: the AWS SDK wraps an error that is not
      // `instanceof Error` in its realm (under jest, Node's own errors) as "AWS SDK error wrapper for …",
      // Azure's says REQUEST_SEND_ERROR and quotes Node's message.
      const codes = [code, typeof message === 'string' ? CODE_IN_MESSAGE.exec(message)?.[1] : undefined].filter(
        (c): c is string => typeof c === 'string',
      );
      const unreachable = codes.find((c) => NETWORK[c]);
      if (unreachable)
        return new BlobStoreUnavailableError({
          reason: 'unreachable',
          message: `cannot reach ${endpoint}: ${NETWORK[unreachable]}`,
          cause: err,
        });
      if (codes.some((c) => TIMEOUT.has(c)) || (typeof name === 'string' && TIMEOUT.has(name))) {
        return new BlobStoreUnavailableError({
          reason: 'timeout',
          message: `${endpoint} did not answer in time`,
          cause: err,
        });
      }
    }
    return undefined;
  }
}
