import { BadRequestError } from '@patchbay/contracts';
import { contentDisposition, parseDownloadOptions } from '../../src/domain/download-options';

const fieldOf = (query: Record<string, unknown>): string | null | undefined => {
  try {
    parseDownloadOptions(query);
    return undefined;
  } catch (err) {
    return err instanceof BadRequestError ? err.errors[0]?.field : 'not a 400';
  }
};

describe('public file server query parameters', () => {
  test('defaults: inline, no name, the stored type, Cache-Control literally None, no conversion', () => {
    expect(parseDownloadOptions({})).toEqual({
      disposition: 'inline',
      dispositionName: null,
      contentType: null,
      cacheControl: 'None',
      format: null,
      bitrate: null,
    });
  });

  test('content_type maps to its header; f and br ask a conversion', () => {
    expect(
      parseDownloadOptions({
        content_type: 'ulaw',
        f: 'mp3',
        br: '32',
        disposition: 'attachment',
        disposition_name: 'a b.mp3',
      }),
    ).toEqual({
      disposition: 'attachment',
      dispositionName: 'a b.mp3',
      contentType: 'audio/basic',
      cacheControl: 'None',
      format: 'mp3',
      bitrate: 32,
    });
    expect(parseDownloadOptions({ content_type: 'g722' }).contentType).toBe('audio/G722');
  });

  test('cache_headers wins over cache_control: no → no-cache, seconds → public max-age', () => {
    expect(parseDownloadOptions({ cache_control: 'no-store' }).cacheControl).toBe('no-store');
    expect(parseDownloadOptions({ cache_control: 'no-store', cache_headers: 'no' }).cacheControl).toBe('no-cache');
    expect(parseDownloadOptions({ cache_headers: '60' }).cacheControl).toBe('public, max-age=60');
  });

  test('every bad value is a 400 naming its parameter, a repeated one too', () => {
    expect(fieldOf({ disposition: 'download' })).toBe('disposition');
    expect(fieldOf({ disposition_name: '' })).toBe('disposition_name');
    expect(fieldOf({ content_type: 'exe' })).toBe('content_type');
    expect(fieldOf({ cache_control: 'max-age=abc; evil' })).toBe('cache_control');
    expect(fieldOf({ cache_headers: 'soon' })).toBe('cache_headers');
    expect(fieldOf({ f: 'exe' })).toBe('f');
    expect(fieldOf({ br: '33' })).toBe('br');
    expect(fieldOf({ f: ['mp3', 'ogg'] })).toBe('f');
  });
});

test('Content-Disposition: the type alone, or the name percent-encoded as RFC 5987 asks', () => {
  expect(contentDisposition('inline', null)).toBe('inline');
  expect(contentDisposition('attachment', "Grüße (1)'s.wav")).toBe(
    "attachment; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%281%29%27s.wav",
  );
});
