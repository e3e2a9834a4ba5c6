import { UnprocessableError } from '@patchbay/contracts';
import { CONTAINER_DEFAULTS } from '../../src/domain/container-rules';
import {
  checkClassification,
  declaredClassification,
  defaultAccessName,
  describeContent,
  uploadFields,
} from '../../src/domain/file-fields';
import type { ContainerDoc } from '../../src/domain/documents';

const container = (over: Partial<ContainerDoc> = {}) =>
  ({ ...CONTAINER_DEFAULTS, container_sid: 'c', partner_sid: 'p', ...over }) as ContainerDoc;

describe('upload fields', () => {
  test("the container's default_file_* values, then the File defaults, unless the upload says", () => {
    const c = container({ default_file_publish: 'no', default_file_lifecycle_ttl: 60, default_file_unique: true });
    expect(uploadFields({ container_sid: 'c' }, c)).toMatchObject({
      name: 'N/A',
      given_name: false,
      type: 'file',
      publish: 'no',
      lifecycle_ttl: 60,
      unique: true,
      threshold_include: true,
    });
    expect(
      uploadFields({ container_sid: 'c', name: 'a.wav', publish: 'file_sid', unique: false, desired_bitrate: 32 }, c),
    ).toMatchObject({ name: 'a.wav', given_name: true, publish: 'file_sid', unique: false, desired_bitrate: 32 });
  });

  test('a classification the request proves by itself; none from nothing', () => {
    expect(declaredClassification(uploadFields({ container_sid: 'c' }, container()))).toBeNull();
    expect(declaredClassification(uploadFields({ container_sid: 'c', name: 'tool.exe' }, container()))).toBe(
      'executable',
    );
    expect(declaredClassification(uploadFields({ container_sid: 'c', mime_type: 'audio/ogg' }, container()))).toBe(
      'media',
    );
  });

  test('blocked, or not among the allowed: 422 naming content_classification', () => {
    const field = (c: ContainerDoc, k: 'media' | 'document') => {
      try {
        checkClassification(c, k);
        return null;
      } catch (err) {
        return (err as UnprocessableError).errors[0].field;
      }
    };
    expect(field(container({ blocked_classifications: ['media'] }), 'media')).toBe('content_classification');
    expect(field(container({ allowed_classifications: ['document'] }), 'media')).toBe('content_classification');
    expect(field(container({ allowed_classifications: ['document'] }), 'document')).toBeNull();
  });
});

describe('content', () => {
  test("the content decides when the request says nothing; the request's mime type wins when given", () => {
    const wav = Buffer.from('RIFF\0\0\0\0WAVEfmt ');
    expect(describeContent(uploadFields({ container_sid: 'c' }, container()), wav)).toEqual({
      mimeType: 'audio/x-wav',
      classification: 'media',
      format: 'wav',
    });
    expect(
      describeContent(uploadFields({ container_sid: 'c', mime_type: 'text/plain' }, container()), Buffer.from('hello')),
    ).toEqual({ mimeType: 'text/plain', classification: 'document', format: 'txt' });
    expect(describeContent(uploadFields({ container_sid: 'c' }, container()), Buffer.from('hello'))).toEqual({
      mimeType: 'application/octet-stream',
      classification: 'unknown',
      format: null,
    });
  });

  test('the default access name carries the extension of the name, else of the mime type', () => {
    expect(defaultAccessName('f1', 'song.MP3', 'audio/mpeg')).toBe('f1.mp3');
    expect(defaultAccessName('f1', undefined, 'audio/basic')).toBe('f1.ul');
    expect(defaultAccessName('f1', undefined, 'application/octet-stream')).toBe('f1');
  });
});
