import {
  cacheBlobKey,
  cachePrefixOf,
  externalBlobKey,
  fileBlobKey,
  fileSidOfBlobKey,
  isExternalBlobKey,
  OWN_BLOB_PREFIXES,
  parseExternalBlobKey,
  transcodedBlobKey,
} from '../src';

describe('blob keys: built and parsed in one place', () => {
  test('a file, its upload-time transcoding and its download cache', () => {
    const file = fileBlobKey('P1', 'F1');
    expect(file).toBe('files/P1/F1');
    expect(transcodedBlobKey(file, 'mp3', 64, 'ab12cd34')).toBe('files/P1/F1.mp3-64.ab12cd34');
    expect(transcodedBlobKey(file, 'wav', null, 'ab12cd34')).toBe('files/P1/F1.wav.ab12cd34');
    expect(cacheBlobKey('F1', 'ogg', 32)).toBe('cache/F1/ogg-32');
    expect(cacheBlobKey('F1', 'wav', null)).toBe('cache/F1/wav-src');
    expect(cacheBlobKey('F1', 'wav', null).startsWith(cachePrefixOf('F1'))).toBe(true);
    expect(OWN_BLOB_PREFIXES.every((p) => [file, cacheBlobKey('F1', 'mp3', null)].some((k) => k.startsWith(p)))).toBe(
      true,
    );
  });

  test('every key of the layout names the file it belongs to, in an external store too; other keys name none', () => {
    expect(fileSidOfBlobKey(externalBlobKey('C1.2', fileBlobKey('P1', 'F1')))).toBe('F1');
    expect(
      fileSidOfBlobKey(transcodedBlobKey(externalBlobKey('C1.2', fileBlobKey('P1', 'F1')), 'mp3', null, 'n')),
    ).toBe('F1');
    expect(fileSidOfBlobKey(fileBlobKey('P1', 'F1'))).toBe('F1');
    expect(fileSidOfBlobKey(transcodedBlobKey(fileBlobKey('P1', 'F1'), 'mp3', 64, 'n'))).toBe('F1');
    expect(fileSidOfBlobKey(cacheBlobKey('F1', 'mp3', 64))).toBe('F1');
    for (const other of [
      'files/P1',
      'files/P1/F1/x',
      'cache/',
      'cache//x',
      'uploads/F1',
      externalBlobKey('s1', 'other/F1'),
    ])
      expect(fileSidOfBlobKey(other)).toBeUndefined();
  });

  test('external keys round-trip; own keys are never external', () => {
    const key = externalBlobKey('C1.2', fileBlobKey('P1', 'F1'));
    expect(key).toBe('ext/C1.2/files/P1/F1');
    expect(isExternalBlobKey(key)).toBe(true);
    expect(parseExternalBlobKey(key)).toEqual({ storeId: 'C1.2', key: 'files/P1/F1' });
    expect(parseExternalBlobKey(transcodedBlobKey(key, 'mp3', null, 'n'))).toEqual({
      storeId: 'C1.2',
      key: 'files/P1/F1.mp3.n',
    });
    for (const own of [fileBlobKey('P1', 'F1'), cacheBlobKey('F1', 'mp3', null)]) {
      expect(isExternalBlobKey(own)).toBe(false);
      expect(parseExternalBlobKey(own)).toBeNull();
    }
    expect(parseExternalBlobKey('ext/bad id/x')).toBeNull();
    expect(parseExternalBlobKey('ext/s1/')).toBeNull();
  });
});
