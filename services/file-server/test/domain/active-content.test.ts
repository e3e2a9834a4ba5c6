import { effectiveDisposition, rendersAsDocument } from '../../src/domain/active-content';

test.each([
  'audio/x-wav',
  'audio/mpeg',
  'video/mp4',
  'image/png',
  'IMAGE/JPEG; q=1',
  'text/plain; charset=utf-8',
  'application/pdf',
  'application/json',
  'application/octet-stream',
  'text/css',
  'application/zip',
])('%s is passive: the disposition asked for', (type) => {
  expect(rendersAsDocument(type)).toBe(false);
  expect(effectiveDisposition('inline', type)).toBe('inline');
  expect(effectiveDisposition('attachment', type)).toBe('attachment');
});

test.each([
  'text/html',
  'TEXT/HTML; charset=utf-8',
  'image/svg+xml',
  'application/javascript',
  'text/javascript',
  'application/x-ecmascript',
  'application/xml',
  'text/xml',
  'text/xsl',
  'application/xhtml+xml',
  'application/rss+xml',
  'multipart/x-mixed-replace',
  'nonsense',
  'text/',
])('%s renders as a document (or is unknown): always an attachment', (type) => {
  expect(rendersAsDocument(type)).toBe(true);
  expect(effectiveDisposition('inline', type)).toBe('attachment');
});
