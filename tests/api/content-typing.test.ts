/**
 * Recordings typed by their bytes (decisions §41): WAV bytes named `x.mp3` are `audio/x-wav`, in
 * the File and on the file server; the name types a file only when its content says nothing.
 */
import request from 'supertest';
import { instance, newPartner, type TestPartner } from '../harness/api';
import { defaultContainer, endpoint, record } from '../support/media-plane';
import { tone } from '../support/media';
import { uploadRaw } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

test('a recording of WAV bytes named x.mp3 is audio/x-wav, and served so', async () => {
  const flexml = await endpoint(p, 'flexml');
  const res = await record({ endpoint_sid: flexml.endpoint_sid, name: 'x.mp3' }, tone('wav', 1), {
    type: 'application/octet-stream',
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ name: 'x.mp3', mime_type: 'audio/x-wav', content_format: 'wav' });
  const served = await request(instance().storageUrl).get(`/f/${res.body.file_sid}`);
  expect(served.headers['content-type']).toMatch(/^audio\/x-wav/);
});

test('an upload: the bytes decide for media; the name when the bytes say nothing', async () => {
  const container = await defaultContainer(p);
  const wav = await uploadRaw(p, { container_sid: container, name: 'song.mp3' }, tone('wav', 1));
  expect(wav.body.mime_type).toBe('audio/x-wav');
  const text = await uploadRaw(p, { container_sid: container, name: 'notes.mp3' }, 'not audio at all');
  expect(text.body.mime_type).toBe('audio/mpeg');
  const html = await uploadRaw(p, { container_sid: container, name: 'page.txt' }, '<!doctype html><p>hi</p>');
  expect(html.body.mime_type).toBe('text/plain');
});
