import { newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadRaw } from '../support/storage';
import { tone } from '../support/media';

let p: TestPartner;
let containerSid: string;
beforeAll(async () => {
  p = await newPartner();
  containerSid = (await createContainer(p)).container_sid;
});

describe('audio files are described by ffprobe', () => {
  test.each([
    ['wav', 'audio/x-wav'],
    ['mp3', 'audio/mpeg'],
    ['ogg', 'audio/ogg'],
    ['flac', 'audio/flac'],
  ])('%s: format, mime type and duration', async (format, mime) => {
    const res = await uploadRaw(p, { container_sid: containerSid, name: `tone.${format}` }, tone(format, 2));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ content_format: format, mime_type: mime, content_classification: 'media' });
    expect(res.body.content_duration).toBeCloseTo(2, 0);
  });

  test('headerless telephony audio is known by its extension (al, ul, g722)', async () => {
    for (const format of ['al', 'ul', 'g722']) {
      const res = await uploadRaw(p, { container_sid: containerSid, name: `tone.${format}` }, tone(format, 2));
      expect(res.status).toBe(201);
      expect(res.body.content_format).toBe(format);
      expect(res.body.content_classification).toBe('media');
      expect(res.body.content_duration).toBeCloseTo(2, 0);
    }
  });
});
