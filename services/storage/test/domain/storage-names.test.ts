import { storageNameViolations } from '../../src/domain/storage-names';

const fields = (type: Parameters<typeof storageNameViolations>[0], attrs: Record<string, unknown>) =>
  storageNameViolations(type, attrs).map((e) => e.field);

test('S3 buckets follow the S3 naming rules', () => {
  for (const bucket of ['recordings', 'my.bucket-1', 'abc', 'a'.repeat(63)])
    expect({ bucket, errors: fields('aws_s3', { bucket }) }).toEqual({ bucket, errors: [] });
  for (const bucket of [
    '..',
    '.',
    'ab',
    'a'.repeat(64),
    'Upper',
    'under_score',
    '-start',
    'end-',
    'a..b',
    '127.0.0.1',
    'xn--abc',
    'sthree-x',
    'name-s3alias',
    'a/b',
    'a b',
  ])
    expect({ bucket, errors: fields('aws_s3', { bucket }) }).toEqual({
      bucket,
      errors: ['external_attributes.bucket'],
    });
});

test('Cloud Storage buckets follow the Google naming rules', () => {
  for (const bucket of ['media', 'my_bucket-1', 'a.b.c', `${'a'.repeat(63)}.${'b'.repeat(63)}`])
    expect({ bucket, errors: fields('gcp_storage', { bucket }) }).toEqual({ bucket, errors: [] });
  for (const bucket of ['..', 'ab', 'a'.repeat(64), 'Media', '_x_', '10.0.0.1', 'goog-x', 'my-google-bucket', 'a..b'])
    expect({ bucket, errors: fields('gcp_storage', { bucket }) }).toEqual({
      bucket,
      errors: ['external_attributes.bucket'],
    });
});

test('Azure containers and account names follow the Azure naming rules', () => {
  for (const container of ['calls', 'a-b-c', '123'])
    expect({ container, errors: fields('azure_blob', { container }) }).toEqual({ container, errors: [] });
  for (const container of ['..', 'ab', 'a--b', 'end-', '-start', 'Calls', 'a.b', 'a_b'])
    expect({ container, errors: fields('azure_blob', { container }) }).toEqual({
      container,
      errors: ['external_attributes.container'],
    });
  expect(fields('azure_blob', { container: 'calls', credentials: { account_name: 'devstoreaccount1' } })).toEqual([]);
  for (const account_name of ['127.0.0.1', 'evil.com#', 'UPPER', 'ab', 'a'.repeat(25)])
    expect(fields('azure_blob', { container: 'calls', credentials: { account_name, account_key: 'k' } })).toEqual([
      'external_attributes.credentials',
    ]);
});

test('a prefix is key segments: no .. segment, no leading slash', () => {
  for (const prefix of ['pbx', 'a/b', 'a/b/', 'rec.2024/x_y-z'])
    expect({ prefix, errors: fields('aws_s3', { bucket: 'b1b', prefix }) }).toEqual({ prefix, errors: [] });
  for (const prefix of ['..', '../x', 'a/../b', '/a', 'a//b', './a', 'a b', 'a\\b'])
    expect({ prefix, errors: fields('aws_s3', { bucket: 'b1b', prefix }) }).toEqual({
      prefix,
      errors: ['external_attributes.prefix'],
    });
});
