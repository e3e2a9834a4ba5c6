/**
 * Active content on the public file server, in a real browser (docs/security.md, "Active content"): a partner's
 * `.html` or `.svg` upload holding `alert(document.domain)` never runs on the file server's origin —
 * opened directly, framed, or embedded — while a `.wav` still plays both from a page of another origin
 * that embeds it (the console's player) and when its URL is opened on its own. Debian's chromium
 * through puppeteer-core, against one embedded Patchbay started for this file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { launchBrowser } from './console-kit';
import { consistently } from '../support/poll';

const SCRIPT = 'alert(document.domain);document.title="RAN"';
let inst: PatchbayInstance;
let browser: Browser;
/** Another origin that embeds the files, as the console does (its page is the HTML given per test). */
let embedder: http.Server;
let embedPage = '';
const ids: Record<string, string> = {};

async function upload(name: string, body: Buffer | string, mime?: string): Promise<string> {
  const auth = { Authorization: `Bearer ${inst.token}` };
  const containers = (await (await fetch(`${inst.baseUrl}/storage/containers`, { headers: auth })).json()) as {
    items: Array<{ container_sid: string }>;
  };
  const q = new URLSearchParams({ container_sid: containers.items[0].container_sid, name, publish: 'file_sid' });
  if (mime) q.set('mime_type', mime);
  const res = await fetch(`${inst.baseUrl}/storage/files?${q.toString()}`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/octet-stream' },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { file_sid: string }).file_sid;
}

/** A page that records every dialog (an alert is what the files try) and whether a script ran. */
async function watched(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, dialogs };
}

const fileUrl = (name: string) => `${inst.storageUrl}/f/${ids[name]}`;

beforeAll(async () => {
  [inst, browser] = await Promise.all([startPatchbay('embedded'), launchBrowser()]);
  ids.html = await upload('page.html', `<!doctype html><html><body><script>${SCRIPT}</script></body></html>`);
  ids.svg = await upload('image.svg', `<svg xmlns="http://www.w3.org/2000/svg"><script>${SCRIPT}</script></svg>`);
  ids.fakeWav = await upload('call.wav', `<html><script>${SCRIPT}</script></html>`, 'text/html');
  ids.wav = await upload('tone.wav', tone('wav', 2));
  embedder = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(embedPage);
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => embedder?.close(r));
  await inst?.stop();
}, 60_000);

test.each(['html', 'svg', 'fakeWav'])('%s opened directly on the file server: no script runs', async (name) => {
  const { page, dialogs } = await watched();
  // An attachment becomes a download: the navigation is aborted, and nothing is rendered.
  await page.goto(fileUrl(name), { waitUntil: 'load', timeout: 10_000 }).catch(() => undefined);
  await consistently(() => expect(dialogs).toEqual([]), 500); // nor a moment later
  expect(await page.title().catch(() => '')).not.toBe('RAN');
  await page.close();
});

test('framed or embedded by another origin: no script runs', async () => {
  const origin = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}`;
  embedPage = ['html', 'svg', 'fakeWav']
    .map(
      (n) => `<iframe src="${fileUrl(n)}"></iframe><object data="${fileUrl(n)}"></object><embed src="${fileUrl(n)}">`,
    )
    .join('');
  const { page, dialogs } = await watched();
  await page.goto(origin, { waitUntil: 'networkidle0', timeout: 15_000 });
  await consistently(() => expect(dialogs).toEqual([]), 500); // nor a moment later
  const titles = await Promise.all(page.frames().map((f) => f.title().catch(() => '')));
  expect(titles).not.toContain('RAN');
  await page.close();
});

test('audio still plays: embedded by another origin, and opened on its own', async () => {
  const origin = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}`;
  embedPage = `<audio id="player" src="${fileUrl('wav')}" preload="auto"></audio>`;
  const { page } = await watched();
  await page.goto(origin, { waitUntil: 'networkidle0' });
  // A string: it runs in the page (the DOM's types are not this project's).
  const embedded: unknown = await page.evaluate(`(async () => {
    const a = document.getElementById('player');
    await a.play();
    return { duration: a.duration, error: a.error ? a.error.code : null };
  })()`);
  expect(embedded).toEqual({ duration: 2, error: null });
  // Chromium's own media document replays the URL as a media request: the policy must let it.
  await page.goto(fileUrl('wav'), { waitUntil: 'load' });
  const direct = await page.waitForFunction(
    `(() => {
      const v = document.querySelector('video');
      return v && v.readyState >= 1 ? { duration: v.duration, error: v.error ? v.error.code : null } : null;
    })()`,
    { timeout: 10_000 },
  );
  expect(await direct.jsonValue()).toEqual({ duration: 2, error: null });
  await page.close();
});
