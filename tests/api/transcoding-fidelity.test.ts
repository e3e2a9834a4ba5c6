/**
 * Transcoding fidelity (decisions §20) through the public API: an allowed bitrate never
 * breaks a conversion, `desired_bitrate` never makes a file bigger, a low bitrate is honoured, mp4
 * is a target only, and errors say what is wrong without ffmpeg's words, paths or addresses.
 * (Every target at every bitrate is covered by the transcoder's own tests.)
 */
import request from 'supertest';
import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { createContainer, transcodedFile, uploadRaw } from '../support/storage';
import { noise } from '../support/media';
import { binary, durationOf } from '../support/audio-probe';

let p: TestPartner;
let containerSid: string;
const pub = () => request(instance().storageUrl);
const mono8k = () => noise('wav', { seconds: 3, sampleRate: 8000, channels: 1 });
const stereo44k = (seconds = 3) => noise('wav', { seconds, sampleRate: 44100, channels: 2 });
/** What may never reach a client: ffmpeg's own words, temporary paths, network addresses. */
const LEAKS =
  /ffmpeg|ffprobe|stderr|invalid data|\/tmp|scratch|\/[\w.-]+\/[\w.-]+|\b\d{1,3}(\.\d{1,3}){3}\b|nats:\/\//i;

let blobs: InstanceBlobs;
afterAll(() => blobs?.close());
beforeAll(async () => {
  blobs = await instanceBlobs(instance());
  p = await newPartner();
  containerSid = (await createContainer(p)).container_sid;
});

const kbps = (bytes: number, seconds: number) => (bytes * 8) / seconds / 1000;

describe('an allowed bitrate never breaks a conversion', () => {
  test.each([48, 64, 96])('f=ogg&br=%i on 8 kHz mono, at download and at upload', async (br) => {
    const up = await uploadRaw(p, { container_sid: containerSid, name: 'mono.wav' }, mono8k());
    const res = await binary(pub().get(`/f/${up.body.file_sid}?f=ogg&br=${br}`));
    expect(res.status).toBe(200);
    expect(durationOf(res.body, 'ogg')).toBeCloseTo(3, 0);

    const stored = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'mono.wav', type: 'audio', desired_format: 'ogg', desired_bitrate: br },
      mono8k(),
    );
    expect(stored.status).toBe(201);
    const done = await transcodedFile(p, stored.body.file_sid);
    expect(done).toMatchObject({ content_format: 'ogg', mime_type: 'audio/ogg' });
    expect(done.content_duration).toBeCloseTo(3, 0);
  });

  test(
    'a low bitrate the encoder cannot reach at 44.1 kHz is honoured by ' + 'resampling (br and desired_bitrate)',
    async () => {
      const up = await uploadRaw(p, { container_sid: containerSid, name: 'stereo.wav' }, stereo44k(6));
      // Headers and container included (Vorbis's are ~4 KB); at 44.1 kHz stereo the encoders cannot go
      // below 32 (mp3) and 25 (AAC) kbit/s, and Vorbis refuses to encode under 45.
      for (const [f, limit] of [
        ['mp3', 12],
        ['mp4', 15],
        ['ogg', 22],
      ] as const) {
        const res = await binary(pub().get(`/f/${up.body.file_sid}?f=${f}&br=8`));
        expect(res.status).toBe(200);
        expect([f, kbps(res.body.length, durationOf(res.body, f)) < limit]).toEqual([f, true]);
      }
      const stored = await uploadRaw(
        p,
        { container_sid: containerSid, name: 'stereo.wav', type: 'audio', desired_format: 'mp3', desired_bitrate: 8 },
        stereo44k(),
      );
      const done = await transcodedFile(p, stored.body.file_sid);
      expect(kbps(done.file_bytes, done.content_duration)).toBeLessThan(12);
    },
  );

  test('br on a target of fixed or lossless rate is ignored: the same copy as without it, made once', async () => {
    const up = await uploadRaw(p, { container_sid: containerSid, name: 'stereo.wav' }, stereo44k());
    const plain = await binary(pub().get(`/f/${up.body.file_sid}?f=flac`));
    for (const br of [8, 320]) {
      const res = await binary(pub().get(`/f/${up.body.file_sid}?f=flac&br=${br}`));
      expect(Buffer.compare(res.body, plain.body)).toBe(0);
    }
    expect(await blobs.keys(`cache/${up.body.file_sid}/`)).toHaveLength(1);
  });
});

describe('desired_bitrate never makes a file bigger', () => {
  test('at or above the source bitrate it is ignored: a 128 kbit/s mp3 asked for 320 is stored as it is', async () => {
    const source = noise('mp3', { seconds: 3, sampleRate: 44100, channels: 2, bitrate: 128 });
    const asks: Array<Record<string, string | number>> = [
      { desired_bitrate: 320 },
      { desired_bitrate: 128 },
      { desired_format: 'mp3', desired_bitrate: 320 },
    ];
    for (const fields of asks) {
      const res = await uploadRaw(
        p,
        { container_sid: containerSid, name: 'song.mp3', type: 'audio', ...fields },
        source,
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        content_format: 'mp3',
        content_transcoding_progress: null,
        file_bytes: source.length,
      });
      const data = await binary(
        http()
          .get(`${API}/storage/files/${res.body.file_sid}/data`)
          .set(...p.auth),
      );
      expect(Buffer.compare(data.body, source)).toBe(0);
    }
  });

  test(
    'below it, it lowers the size; with a format change it is ignored when ' +
      'not lower, and the format still changes',
    async () => {
      const source = noise('mp3', { seconds: 3, sampleRate: 44100, channels: 2, bitrate: 128 });
      const lower = await uploadRaw(
        p,
        { container_sid: containerSid, name: 'song.mp3', type: 'audio', desired_bitrate: 64 },
        source,
      );
      expect((await transcodedFile(p, lower.body.file_sid)).file_bytes).toBeLessThan(source.length * 0.6);
      const ogg = await uploadRaw(
        p,
        { container_sid: containerSid, name: 'song.mp3', type: 'audio', desired_format: 'ogg', desired_bitrate: 320 },
        source,
      );
      const done = await transcodedFile(p, ogg.body.file_sid);
      expect(done.content_format).toBe('ogg');
      expect(done.file_bytes).toBeLessThan(source.length);
    },
  );
});

describe('mp4 is a target only', () => {
  const mp4 = () => noise('mp4', { seconds: 2, sampleRate: 44100, channels: 2 });

  test('an mp4 source for upload-time transcoding is a 422 naming the field, and nothing is stored', async () => {
    const before = (
      await http()
        .get(`${API}/storage/containers/${containerSid}`)
        .set(...p.auth)
    ).body.total_files;
    const res = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'clip.mp4', type: 'audio', desired_format: 'mp3' },
      mp4(),
    );
    expect(res.status).toBe(422);
    expectErrorBody(res.body);
    expect(res.body.errors[0]).toMatchObject({ field: 'desired_format', message: expect.stringContaining('mp4') });
    const again = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'clip.mp4', type: 'audio', desired_format: 'mp4', desired_bitrate: 8 },
      mp4(),
    );
    expect(again.status).toBe(422);
    expect(again.body.errors[0].field).toBe('desired_bitrate');
    expect(
      (
        await http()
          .get(`${API}/storage/containers/${containerSid}`)
          .set(...p.auth)
      ).body.total_files,
    ).toBe(before);
  });

  test(
    "at download, f or br on an mp4 file is the file server's 422 naming " + 'the parameter; f=mp4 serves it as it is',
    async () => {
      const source = mp4();
      const up = await uploadRaw(p, { container_sid: containerSid, name: 'clip.mp4' }, source);
      expect(up.status).toBe(201);
      for (const [query, field] of [
        ['f=mp3', 'f'],
        ['f=ogg&br=32', 'f'],
        ['br=8', 'br'],
        ['f=mp4&br=8', 'br'],
      ]) {
        const res = await pub().get(`/f/${up.body.file_sid}?${query}`);
        expect([query, res.status]).toEqual([query, 422]);
        expectErrorBody(res.body);
        expect(res.body.errors[0].field).toBe(field);
      }
      const same = await binary(pub().get(`/f/${up.body.file_sid}?f=mp4`));
      expect(same.status).toBe(200);
      expect(Buffer.compare(same.body, source)).toBe(0);
    },
  );
});

describe('errors are for people', () => {
  test(
    'a file that is not decodable audio says so, at upload and at ' +
      "download, without ffmpeg's words, paths or addresses",
    async () => {
      const junk = Buffer.from('RIFF\0\0\0\0WAVEfmt this is not really audio at all');
      const res = await uploadRaw(
        p,
        { container_sid: containerSid, name: 'junk.wav', type: 'audio', desired_format: 'mp3' },
        junk,
      );
      expect(res.status).toBe(422);
      expectErrorBody(res.body);
      expect(res.body.errors[0]).toMatchObject({
        field: 'data',
        message: expect.stringMatching(/not decodable audio/),
      });
      expect(JSON.stringify(res.body)).not.toMatch(LEAKS);

      const stored = await uploadRaw(p, { container_sid: containerSid, name: 'junk.wav' }, junk);
      expect(stored.status).toBe(201);
      for (const query of ['f=mp3', 'f=ogg&br=32']) {
        const dl = await pub().get(`/f/${stored.body.file_sid}?${query}`);
        expect(dl.status).toBe(422);
        expectErrorBody(dl.body);
        expect(dl.body.errors[0].message).toMatch(/not decodable audio/);
        expect(JSON.stringify(dl.body)).not.toMatch(LEAKS);
      }
    },
  );
});
