import { probeRetryDelayMs, probeSettled } from '../../src/domain/probe-retry';

test('a failed probe waits the first delay, then twice as long each time, up to the longest', () => {
  const retry = { firstMs: 500, maxMs: 3000 };
  expect([1, 2, 3, 4, 5, 100].map((n) => probeRetryDelayMs(n, retry))).toEqual([500, 1000, 2000, 3000, 3000, 3000]);
  expect(probeRetryDelayMs(0, retry)).toBe(500);
});

test('nothing left to probe once the file has its duration, was shown not media, or is not audio or video', () => {
  const wav = { mime_type: 'audio/x-wav', content_duration: null };
  expect(probeSettled(wav)).toBe(false);
  expect(probeSettled({ ...wav, content_duration: 2.5 })).toBe(true);
  expect(probeSettled({ ...wav, content_duration: 0 })).toBe(true);
  expect(probeSettled({ ...wav, media_probe: 'not_media' })).toBe(true);
  expect(probeSettled({ mime_type: 'application/pdf', content_duration: null })).toBe(true);
});
