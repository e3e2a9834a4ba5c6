/**
 * Every message the transcoder receives is checked against its contracts schema
 * (messages/transcoder.ts): a malformed request is answered 400 naming the field, a malformed job
 * is dropped, each with an error in the log — and the transcoder goes on serving.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Subjects } from '@patchbay/contracts';
import { captureLogger } from '../../../packages/platform/src/testing/capture-logger';
import { noiseWav } from './support/audio';
import { startTranscoderKit } from './support/transcoder-kit';
import { untilTrue } from '../../../tests/support/poll';

const refusals = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'malformed internal message refused');

test('malformed probe, transcode and upload job: refused and logged, never a crash', async () => {
  const { logger, lines } = captureLogger('error');
  const kit = await startTranscoderKit('malformed', { logger });
  try {
    const bus = kit.bus();
    const probe = await bus.request(Subjects.transcoder.probe, { format: 'wav' }, { timeoutMs: 10_000 });
    expect(probe).toMatchObject({ status: 400, error: { errors: [expect.objectContaining({ field: 'blob_key' })] } });
    const transcode = await bus.request(
      Subjects.transcoder.transcode,
      { blob_key: 'files/P/x', source_format: 'wav', target: 7, bitrate: null, output_key: 'cache/x/mp3-src' },
      { timeoutMs: 10_000 },
    );
    expect(transcode).toMatchObject({ status: 400, error: { errors: [expect.objectContaining({ field: 'target' })] } });
    await bus.enqueue(Subjects.transcoder.uploadJob, { file_sid: 'F', blob_key: 42 }, { msgId: 'malformed-job' });
    await untilTrue(() => refusals(lines).length >= 3, { what: 'three refusals' });
    expect(refusals(lines).map((l) => l.subject)).toEqual([
      Subjects.transcoder.probe,
      Subjects.transcoder.transcode,
      Subjects.transcoder.uploadJob,
    ]);

    // Still serving: a well-formed probe is answered.
    const wav = path.join(kit.root, 'tone.wav');
    noiseWav(wav, 8000, 1, 1);
    await kit.blobs.put('files/P/tone', fs.createReadStream(wav));
    expect(
      await bus.request(Subjects.transcoder.probe, { blob_key: 'files/P/tone', format: 'wav' }, { timeoutMs: 30_000 }),
    ).toMatchObject({ status: 200, body: { format: 'wav' } });
  } finally {
    await kit.stop();
  }
});
