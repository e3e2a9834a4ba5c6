import { Readable } from 'node:stream';
import request from 'supertest';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { createContainer, transcodedFile, uploadRaw } from '../support/storage';
import { tone } from '../support/media';
import { binary, durationOf } from '../support/audio-probe';
import type { ApiJson } from '../support/api-json';

const SOURCES = ['al', 'alaw', 'flac', 'g722', 'mp3', 'ogg', 'ul', 'ulaw', 'wav'];
const TARGETS = [...SOURCES, 'mp4'];
/** Targets sent as ffmpeg writes them on the first request (decisions §53); the rest are made whole first. */
const STREAMED = new Set(['al', 'alaw', 'g722', 'mp3', 'ogg', 'ul', 'ulaw']);
/** The `content_format` an upload of each source gets: `?f=` naming it sends the file as stored. */
const FORMAT_OF: Record<string, string> = { ...Object.fromEntries(SOURCES.map((t) => [t, t])), alaw: 'al', ulaw: 'ul' };
const MIME: Record<string, string> = {
  al: 'audio/basic',
  alaw: 'audio/basic',
  ul: 'audio/basic',
  ulaw: 'audio/basic',
  flac: 'audio/flac',
  g722: 'audio/G722',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/x-wav',
};

let p: TestPartner;
let containerSid: string;
const sources = new Map<string, ApiJson>();
const pub = () => request(instance().storageUrl);

let blobs: InstanceBlobs;
afterAll(() => blobs?.close());
beforeAll(async () => {
  blobs = await instanceBlobs(instance());
  p = await newPartner();
  containerSid = (await createContainer(p)).container_sid;
  for (const format of SOURCES) {
    const res = await uploadRaw(p, { container_sid: containerSid, name: `tone.${format}` }, tone(format, 1));
    expect(res.status).toBe(201);
    sources.set(format, res.body);
  }
}, 120000);

describe('download-time transcoding (f, br)', () => {
  test.each(SOURCES)(
    'from %s to every target',
    async (source) => {
      const f = sources.get(source)!;
      for (const target of TARGETS) {
        const res = await binary(pub().get(`/f/${f.file_sid}?f=${target}`));
        expect([source, target, res.status]).toEqual([source, target, 200]);
        expect(res.headers['content-type']).toBe(MIME[target]);
        if (STREAMED.has(target) && target !== FORMAT_OF[source]) {
          // Sent as it was made: no length known up front, and no ranges on this first answer.
          expect([target, res.headers['content-length'], res.headers['transfer-encoding']]).toEqual([
            target,
            undefined,
            'chunked',
          ]);
          expect(res.headers['accept-ranges']).toBe('none');
        } else expect(Number(res.headers['content-length'])).toBe(res.body.length);
        expect(durationOf(res.body, target)).toBeCloseTo(1, 0);
        // The same bytes, now from the stored copy, with their length.
        const again = await binary(pub().get(`/f/${f.file_sid}?f=${target}`));
        expect([target, Number(again.headers['content-length'])]).toEqual([target, res.body.length]);
        expect(Buffer.compare(again.body, res.body)).toBe(0);
      }
    },
    120000,
  );

  test('a range without a cached copy gets the whole transcoded file (200); with one, 206', async () => {
    const f = (await uploadRaw(p, { container_sid: containerSid, name: 'r.wav' }, tone('wav', 2))).body;
    const first = await binary(pub().get(`/f/${f.file_sid}?f=mp3`).set('Range', 'bytes=0-99'));
    expect(first.status).toBe(200);
    expect(first.headers['content-range']).toBeUndefined();
    const second = await binary(pub().get(`/f/${f.file_sid}?f=mp3`).set('Range', 'bytes=0-99'));
    expect(second.status).toBe(206);
    expect(second.headers['content-range']).toBe(`bytes 0-99/${first.body.length}`);
    expect(Buffer.compare(second.body, first.body.subarray(0, 100))).toBe(0);
  });

  test('br: lower than the stored bitrate re-encodes, otherwise it is ignored', async () => {
    const f = (await uploadRaw(p, { container_sid: containerSid, name: 'hi.mp3' }, tone('mp3', 3, { bitrate: 128 })))
      .body;
    const original = await binary(pub().get(`/f/${f.file_sid}`));
    const lower = await binary(pub().get(`/f/${f.file_sid}?br=32`));
    expect(lower.status).toBe(200);
    expect(lower.body.length).toBeLessThan(original.body.length / 2);
    const higher = await binary(pub().get(`/f/${f.file_sid}?br=320`));
    expect(Buffer.compare(higher.body, original.body)).toBe(0);
  });

  test('a source that is not decodable audio: 422, and no copy is kept', async () => {
    const f = (
      await uploadRaw(
        p,
        { container_sid: containerSid, name: 'noise.wav', mime_type: 'audio/x-wav' },
        Buffer.from('definitely not audio'),
      )
    ).body;
    const res = await pub().get(`/f/${f.file_sid}?f=mp3`);
    expect(res.status).toBe(422);
    expect((await pub().get(`/f/${f.file_sid}?f=mp3`)).status).toBe(422);
  });

  test(
    'an empty cached copy (what a machine crash can leave of an unsynced ' + 'write) is made again, not served',
    async () => {
      const f = (await uploadRaw(p, { container_sid: containerSid, name: 'torn.wav' }, tone('wav', 1))).body;
      const first = await binary(pub().get(`/f/${f.file_sid}?f=flac`));
      expect(first.status).toBe(200);
      const [copy, ...more] = await blobs.keys(`cache/${f.file_sid}/`);
      expect(more).toEqual([]);
      await blobs.store.put(copy, Readable.from([]));
      const again = await binary(pub().get(`/f/${f.file_sid}?f=flac`));
      expect(again.status).toBe(200);
      expect(again.body.length).toBe(first.body.length);
      expect(durationOf(again.body, 'flac')).toBeCloseTo(1, 0);
      expect((await blobs.store.stat(copy)).size).toBe(first.body.length);
    },
  );

  test('cached copies go with the file', async () => {
    const f = (await uploadRaw(p, { container_sid: containerSid, name: 'gone.wav' }, tone('wav', 1))).body;
    expect((await pub().get(`/f/${f.file_sid}?f=ogg`)).status).toBe(200);
    expect(await blobs.keys(`cache/${f.file_sid}/`)).toHaveLength(1);
    await http()
      .delete(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth);
    expect(await blobs.keys(`cache/${f.file_sid}/`)).toEqual([]);
  });
});

describe('upload-time transcoding (type audio + desired_format / desired_bitrate)', () => {
  test.each([
    ['wav', 'mp3'],
    ['mp3', 'g722'],
    ['ul', 'wav'],
    ['flac', 'ogg'],
    ['g722', 'al'],
    ['ogg', 'mp4'],
  ])(
    '%s stored as %s',
    async (source, target) => {
      const res = await uploadRaw(
        p,
        { container_sid: containerSid, name: `up.${source}`, type: 'audio', desired_format: target },
        tone(source, 2),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'audio', desired_format: target, content_transcoding_progress: 0 });
      const done = await transcodedFile(p, res.body.file_sid, 30000);
      expect(done).toMatchObject({
        content_format: target,
        mime_type: MIME[target],
        file_access_name: `${done.file_sid}.${target}`,
      });
      expect(done.content_duration).toBeCloseTo(2, 0);
      const data = await binary(
        http()
          .get(`${API}/storage/files/${done.file_sid}/data`)
          .set(...p.auth),
      );
      expect(data.body.length).toBe(done.file_bytes);
      expect(durationOf(data.body, target)).toBeCloseTo(2, 0);
      const c = (
        await http()
          .get(`${API}/storage/containers/${containerSid}`)
          .set(...p.auth)
      ).body;
      const files = (
        await http()
          .get(`${API}/storage/files?limit=1000`)
          .set(...p.auth)
      ).body.items as Array<{ file_bytes: number }>;
      expect(c.total_bytes).toBe(files.reduce((n, x) => n + x.file_bytes, 0));
    },
    60000,
  );

  test('desired_bitrate lowers an mp3', async () => {
    const res = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'big.mp3', type: 'audio', desired_bitrate: 32 },
      tone('mp3', 3, { bitrate: 192 }),
    );
    const done = await transcodedFile(p, res.body.file_sid, 30000);
    expect(done.file_bytes).toBeLessThan(res.body.file_bytes / 3);
    expect(done.content_format).toBe('mp3');
  });

  test('without type the file is stored unchanged; a bad desired value is a 400', async () => {
    const res = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'keep.wav', desired_format: 'mp3' },
      tone('wav', 1),
    );
    expect(res.body).toMatchObject({ content_format: 'wav', content_transcoding_progress: null });
    expect(
      (await uploadRaw(p, { container_sid: containerSid, type: 'audio', desired_format: 'aiff' }, 'x')).status,
    ).toBe(400);
    expect((await uploadRaw(p, { container_sid: containerSid, type: 'audio', desired_bitrate: 100 }, 'x')).status).toBe(
      400,
    );
  });

  test('a source that is not decodable audio: 422 at upload, nothing stored', async () => {
    const before = (
      await http()
        .get(`${API}/storage/containers/${containerSid}`)
        .set(...p.auth)
    ).body.total_files;
    const res = await uploadRaw(
      p,
      { container_sid: containerSid, name: 'fake.wav', type: 'audio', desired_format: 'mp3' },
      Buffer.from('not audio at all'),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('data');
    expect(
      (
        await http()
          .get(`${API}/storage/containers/${containerSid}`)
          .set(...p.auth)
      ).body.total_files,
    ).toBe(before);
  });
});
