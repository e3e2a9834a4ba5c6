import { BlobStoreUnavailableError } from '../../src';

test("an answer carries fixed words for its reason, never the provider's or the socket's text", () => {
  const socket = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:9000'), { code: 'ECONNREFUSED' });
  const refused = BlobStoreUnavailableError.network(socket, 'http://10.1.2.3:9000')!;
  expect(refused.reason).toBe('unreachable');
  expect(refused.message).toMatch(/connection refused/); // for the log
  expect(refused.toBody()).toEqual({ errors: [], message: 'the object storage could not be reached; try again later' });
  const provider = new BlobStoreUnavailableError({
    reason: 'provider_error',
    message: 'the storage failed (HTTP 500 InternalError)',
  });
  expect(JSON.stringify(provider.toBody())).not.toMatch(/InternalError|500/);
  const guarded = BlobStoreUnavailableError.network(
    new Error('AWS SDK error wrapper for Error: this address is not allowed'),
    'http://127.0.0.1:1',
  )!;
  expect(guarded.reason).toBe('address_not_allowed');
  expect(guarded.toBody().message).toBe('this address is not allowed');
});
