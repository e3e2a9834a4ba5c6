import { effectiveDisposition, isPassiveType } from '../../src/domain/active-content';

test.each([
  'audio/x-wav',
  'audio/mpeg',
  'video/mp4',
  'image/png',
  'IMAGE/JPEG; q=1',
  'text/plain; charset=utf-8',
  'application/pdf',
])('%s is passive: inline as asked', (type) => {
  expect(isPassiveType(type)).toBe(true);
  expect(effectiveDisposition('inline', type)).toBe('inline');
  expect(effectiveDisposition('attachment', type)).toBe('attachment');
});

test.each([
  'text/html',
  'image/svg+xml',
  'application/javascript',
  'text/javascript',
  'application/xml',
  'text/xml',
  'application/xhtml+xml',
  'application/json',
  'application/octet-stream',
  'text/css',
  'multipart/x-mixed-replace',
  'nonsense',
])('%s is active (or unknown): always an attachment', (type) => {
  expect(isPassiveType(type)).toBe(false);
  expect(effectiveDisposition('inline', type)).toBe('attachment');
});
