import {
  checkExternalAttributes,
  keepMaskedCredentials,
  locationOf,
  sameLocation,
} from '../../src/domain/external-attributes';

const fields = (errors: Array<{ field: string | null; message: string }>) => errors.map((e) => [e.field, e.message]);

describe('external_attributes per type (interface notes, External containers)', () => {
  test('each type takes its own fields and credentials of one accepted shape', () => {
    expect(
      checkExternalAttributes('aws_s3', {
        bucket: 'b',
        region: 'eu-west-1',
        endpoint: 'http://h:1',
        prefix: 'p',
        credentials: { access_key_id: 'a', secret_access_key: 's' },
      }),
    ).toEqual([]);
    expect(
      checkExternalAttributes('gcp_storage', { bucket: 'b', credentials: { service_account_json: 'e30=' } }),
    ).toEqual([]);
    expect(
      checkExternalAttributes('azure_blob', { container: 'c', credentials: { account_name: 'n', account_key: 'k' } }),
    ).toEqual([]);
    expect(checkExternalAttributes('azure_blob', { container: 'c', credentials: { sas_token: 'sv=1' } })).toEqual([]);
    expect(checkExternalAttributes('aws_s3', { bucket: 'public' })).toEqual([]);
  });

  test('every problem names external_attributes and says which field', () => {
    expect(fields(checkExternalAttributes('azure_blob', { bucket: 'b' }))).toEqual([
      ['external_attributes', 'container is required for a container of type azure_blob'],
      [
        'external_attributes',
        'bucket is not a field of a container of type azure_blob (fields: container, endpoint, prefix, credentials)',
      ],
    ]);
    expect(fields(checkExternalAttributes('gcp_storage', { bucket: 'b', region: 'x' }))[0][1]).toMatch(
      /region is not a field/,
    );
    const halfKey = checkExternalAttributes('aws_s3', { bucket: 'b', credentials: { access_key_id: 'a' } });
    expect(halfKey[0].message).toBe('credentials of a container of type aws_s3 are {access_key_id, secret_access_key}');
    const mixed = checkExternalAttributes('azure_blob', {
      container: 'c',
      credentials: { account_name: 'n', sas_token: 't' },
    });
    expect(mixed[0].message).toMatch(/\{account_name, account_key\} or \{sas_token\}/);
    expect(
      checkExternalAttributes('aws_s3', {
        bucket: 'b',
        credentials: { access_key_id: 'a', secret_access_key: '********' },
      })[0].message,
    ).toBe('credentials.secret_access_key must be given');
  });

  test('a masked credential sent back is the stored one; a new one replaces it; an unknown mask stays missing', () => {
    const stored = { access_key_id: 'a', secret_access_key: 'old' };
    expect(
      keepMaskedCredentials(
        { bucket: 'b', credentials: { access_key_id: '********', secret_access_key: '********' } },
        stored,
      ),
    ).toEqual({ bucket: 'b', credentials: stored });
    expect(
      keepMaskedCredentials(
        { bucket: 'b', credentials: { access_key_id: '********', secret_access_key: 'new' } },
        stored,
      )!.credentials,
    ).toEqual({ access_key_id: 'a', secret_access_key: 'new' });
    expect(
      keepMaskedCredentials({ bucket: 'b', credentials: { secret_access_key: '********' } }, null)!.credentials,
    ).toEqual({});
    expect(keepMaskedCredentials(null, stored)).toBeNull();
  });

  test('the location is everything but the credentials; the same place compares equal whatever the key order', () => {
    expect(
      locationOf({ bucket: 'b', prefix: 'p', credentials: { access_key_id: 'a', secret_access_key: 's' } }),
    ).toEqual({ bucket: 'b', prefix: 'p' });
    expect(sameLocation({ bucket: 'b', prefix: 'p' }, { prefix: 'p', bucket: 'b' })).toBe(true);
    expect(sameLocation({ bucket: 'b', prefix: '' }, { bucket: 'b' })).toBe(true);
    expect(sameLocation({ bucket: 'b' }, { bucket: 'c' })).toBe(false);
  });
});
