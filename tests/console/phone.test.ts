/**
 * The console on a phone (390×844, decisions §52), in a real browser against one embedded Patchbay
 * of its own: no view scrolls the page sideways, every row's actions are on screen and clickable
 * (tables are cards), the upload form fits its card, and an empty list says "0 of 0". Screenshots
 * of each view go to docs/console/phone-*.png.
 */
import request from 'supertest';
import type { Browser, Page } from 'puppeteer-core';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import {
  clickText,
  CONSOLE_PASSWORD,
  launchBrowser,
  newConsolePartner,
  screenshot,
  settled,
  typeInto,
  watchedPage,
} from './console-kit';

const V2 = '/core/v2';

let pb: PatchbayInstance;
let browser: Browser;
let page: Page;
let problems: () => string[];
let clear: () => void;
let auth: [string, string];

beforeAll(async () => {
  [pb, browser] = await Promise.all([startPatchbay('embedded'), launchBrowser()]);
  const partner = await newConsolePartner(pb.origin, pb.token, 'Pocket Telecom', 'phone');
  const login = partner.login;
  auth = partner.auth;
  // A file that can be played (its row has Play, Copy link and Delete) and a second endpoint.
  const containers = await request(pb.origin)
    .get(`${V2}/storage/containers`)
    .set(...auth);
  const up = await request(pb.origin)
    .post(`${V2}/storage/files`)
    .query({ container_sid: containers.body.items[0].container_sid, name: 'a-rather-long-greeting-name.wav' })
    .query({ publish: 'file_sid' })
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(tone('wav', 1));
  expect(up.status).toBe(201);
  const ep = await request(pb.origin)
    .post(`${V2}/endpoints`)
    .set(...auth)
    .send({ type: 'flexml', name: 'main-ivr-with-a-long-name' });
  expect(ep.status).toBe(200);

  ({ page, problems, clear } = await watchedPage(browser));
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.goto(`${pb.origin}/console`, { waitUntil: 'networkidle0' });
  await typeInto(page, '#sign-in-username', login);
  await typeInto(page, '#sign-in-password', CONSOLE_PASSWORD);
  await clickText(page, 'Sign in', '#sign-in');
  await page.waitForSelector('header.top .who', { visible: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await pb?.stop();
}, 60_000);

afterEach(() => {
  const seen = problems();
  clear();
  expect(seen).toEqual([]);
});

const view = (name: string) => clickText(page, name, 'nav.tabs');
const settle = () => settled(page);

/**
 * How far the page scrolls sideways, and what sticks out of the screen (leaving out the record
 * table, which scrolls inside its own box, and table headers, clipped to nothing on a phone).
 */
async function sideways(): Promise<{ overflow: number; wide: string[] }> {
  return (await page.evaluate(`(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 &&
        !e.closest('table.record-list, thead'))
      .slice(0, 5).map((e) => e.tagName + '.' + e.className);
    return { overflow, wide };
  })()`)) as { overflow: number; wide: string[] };
}

/**
 * The buttons in `selector` that a person cannot press where they are: scrolled to, each one's
 * centre must be on the screen and hit the button itself (not clipped, not covered).
 */
async function unreachable(selector: string): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const out = [];
    for (const b of document.querySelectorAll(${JSON.stringify(selector)})) {
      b.scrollIntoView({ block: 'center', inline: 'nearest' });
      const r = b.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (r.left < 0 || r.right > window.innerWidth || !hit || !(hit === b || b.contains(hit)))
        out.push(b.textContent.trim() + ' at ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
    window.scrollTo(0, 0);
    return out;
  })()`)) as string[];
}

test('storage: containers and files as cards, their buttons on screen, the upload form inside its card', async () => {
  await view('Storage');
  await page.waitForSelector('table.containers tbody tr button', { visible: true });
  await (await page.waitForSelector('table.containers tbody tr button', { visible: true }))!.click();
  await page.waitForSelector('table.file-list tbody tr[data-file-sid]', { visible: true });
  await page.waitForSelector('#upload', { visible: true });
  await settle();
  expect(await sideways()).toEqual({ overflow: 0, wide: [] });
  expect(await unreachable('table.containers td button, table.file-list td.actions button')).toEqual([]);
  const buttons = await page.$$eval('table.file-list td.actions button', (bs) => bs.map((b) => b.textContent?.trim()));
  expect(buttons).toEqual(expect.arrayContaining(['Play', 'Delete']));
  // Every part of the upload form (fields, drop zone, button) inside the card's box.
  const outside = await page.$eval('#upload', (form) => {
    const card = form.getBoundingClientRect();
    return [...form.querySelectorAll('*')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.left < card.left - 1 || r.right > card.right + 1);
      })
      .map((e) => `${e.tagName}#${e.id}.${e.className}`);
  });
  expect(outside).toEqual([]);
  // Play opens a player that fits too.
  await clickText(page, 'Play', 'table.file-list');
  await page.waitForSelector('audio', { visible: true });
  await settle();
  expect(await sideways()).toEqual({ overflow: 0, wide: [] });
  await screenshot(page, 'phone-storage');
  await clickText(page, 'Close player', 'table.file-list');
}, 60_000);

test('endpoints: cards with Edit and Delete on screen', async () => {
  await view('Endpoints');
  await page.waitForSelector('table.endpoint-list tbody tr td.actions button', { visible: true });
  await settle();
  expect(await sideways()).toEqual({ overflow: 0, wide: [] });
  expect(await unreachable('table.endpoint-list td.actions button')).toEqual([]);
  await screenshot(page, 'phone-endpoints');
}, 60_000);

test('push: an empty list says "0 of 0"', async () => {
  await view('Push');
  const status = await page.waitForSelector('nav[aria-label="Applications pages"] .page-status ::-p-text(of)', {
    visible: true,
  });
  expect(await status!.evaluate((e) => e.textContent?.trim())).toBe('0 of 0');
  await settle();
  expect(await sideways()).toEqual({ overflow: 0, wide: [] });
}, 60_000);

test('records: the page stays put; the record table scrolls inside its own box', async () => {
  await view('Records');
  await page.waitForSelector('table.record-list', { visible: true });
  await settle();
  expect(await sideways()).toEqual({ overflow: 0, wide: [] });
  const box = await page.$eval('table.record-list', (t) => ({ right: t.getBoundingClientRect().right }));
  expect(box.right).toBeLessThanOrEqual(390);
  await screenshot(page, 'phone-records');
}, 60_000);
