import { probeFailure } from '../../src/domain/probe-failure';

test('every kind of "nothing usable there" reads the same; a refused address has its own one text', () => {
  const texts = (['unreachable', 'timeout', 'provider_error', undefined] as const).map(
    (r) => probeFailure(r, 'aws_s3').message,
  );
  expect(new Set(texts)).toEqual(new Set(['the storage cannot be used: could not connect']));
  expect(probeFailure('address_not_allowed', 'azure_blob')).toEqual({
    field: 'external_attributes.endpoint',
    message: 'this address is not allowed',
    reference_sid: null,
  });
  expect(probeFailure('bad_credentials', 'aws_s3').message).toBe(probeFailure('access_denied', 'aws_s3').message);
  expect(probeFailure('bucket_missing', 'azure_blob').message).toMatch(/container not found/);
});
