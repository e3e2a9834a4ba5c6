/**
 * Active content on the public file server (docs/security.md, "Active content"): every reply carries nosniff and a
 * sandboxing Content-Security-Policy, and a type a browser would run (HTML, SVG, JavaScript, XML),
 * whatever the file's name, is an attachment even when `disposition=inline` asks otherwise; every
 * other type (audio, text, JSON, application/octet-stream) gets the disposition asked, inline by
 * default. Audio keeps its documented headers. The browser side (a script in such a file does not run) is
 * tests/console/active-content.test.ts; the nginx edge, services/file-server/test/accel-redirect.test.ts.
 */
import request from 'supertest';
import { instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadRaw } from '../support/storage';
import { tone } from '../support/media';

let p: TestPartner;
let containerSid: string;
const pub = () => request(instance().storageUrl);
const SCRIPT = '<script>alert(document.domain)</script>';

async function published(name: string, data: Buffer | string, extra: Record<string, string> = {}): Promise<string> {
  const res = await uploadRaw(p, { container_sid: containerSid, name, publish: 'file_sid', ...extra }, data);
  expect(res.status).toBe(201);
  return res.body.file_sid as string;
}

const sandboxed = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': expect.stringMatching(/(^|;)\s*sandbox\s*(;|$)/),
};

beforeAll(async () => {
  p = await newPartner();
  containerSid = (await createContainer(p)).container_sid;
});

test.each([
  ['page.html', `<!doctype html><html><body>${SCRIPT}</body></html>`, {}, /^text\/html/],
  ['image.svg', `<svg xmlns="http://www.w3.org/2000/svg">${SCRIPT}</svg>`, {}, /^image\/svg\+xml/],
  ['code.js', 'alert(document.domain)', {}, /javascript/],
  ['call.wav', `<html>${SCRIPT}</html>`, { mime_type: 'text/html' }, /^text\/html/],
])('%s: an attachment, nosniff, sandboxed', async (name, body, extra, type) => {
  const sid = await published(name, body, extra);
  for (const query of ['', '?disposition=inline', '?disposition=inline&disposition_name=x.html']) {
    const res = await pub().get(`/f/${sid}${query}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(res.headers).toMatchObject(sandboxed);
    expect(res.headers['content-disposition']).toMatch(/^attachment(;|$)/);
  }
  const named = await pub().get(`/f/${sid}?disposition_name=x.html`);
  expect(named.headers['content-disposition']).toBe("attachment; filename*=UTF-8''x.html");
  const head = await pub().head(`/f/${sid}`);
  expect(head.headers).toMatchObject({ ...sandboxed, 'content-disposition': 'attachment' });
});

test('audio keeps inline and its documented headers, with nosniff and the sandbox policy too', async () => {
  const sid = await published('tone.wav', tone('wav', 1));
  const res = await pub().get(`/f/${sid}`).set('Range', 'bytes=0-99');
  expect(res.status).toBe(206);
  expect(res.headers).toMatchObject({
    ...sandboxed,
    'content-type': 'audio/x-wav',
    'content-disposition': 'inline',
    'accept-ranges': 'bytes',
    'cache-control': 'None',
    'access-control-allow-origin': '*',
  });
  expect((await pub().get(`/f/${sid}?disposition=attachment`)).headers['content-disposition']).toBe('attachment');
  // A transcoded copy is audio too.
  const mp3 = await pub().get(`/f/${sid}?f=mp3`);
  expect(mp3.headers).toMatchObject({ ...sandboxed, 'content-type': 'audio/mpeg', 'content-disposition': 'inline' });
});

test.each([
  ['blob.bin', Buffer.from([0, 1, 2, 3, 0xff]), { mime_type: 'application/octet-stream' }, 'application/octet-stream'],
  ['notes.txt', 'just text', {}, 'text/plain'],
  ['data.json', '{"a":1}', { mime_type: 'application/json' }, 'application/json'],
])('%s is passive: inline by default, as asked otherwise, still sandboxed', async (name, body, extra, type) => {
  const sid = await published(name, body, extra);
  const res = await pub().get(`/f/${sid}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(new RegExp(`^${type}`));
  expect(res.headers).toMatchObject({ ...sandboxed, 'content-disposition': 'inline' });
  const asked = await pub().get(`/f/${sid}?disposition=attachment&disposition_name=${name}`);
  expect(asked.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${name}`);
});

test('error replies of the file server carry nosniff and the policy too', async () => {
  const res = await pub().get('/f/no-such-file');
  expect(res.status).toBe(404);
  expect(res.headers).toMatchObject(sandboxed);
});
