/**
 * The console's third fidelity round (decisions §41), in a real browser against one embedded
 * Patchbay of its own: an external container shows its provider and its counts, with no quota
 * meters and no upload form (files arrive there as recordings).
 */
import request from 'supertest';
import type { Browser, Page } from 'puppeteer-core';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { startFakeGcs, type FakeGcs } from '../support/object-stores';
import {
  clickText,
  CONSOLE_PASSWORD,
  launchBrowser,
  newConsolePartner,
  settled,
  typeInto,
  watchedPage,
} from './console-kit';

const V2 = '/core/v2';

let pb: PatchbayInstance;
let gcs: FakeGcs;
let browser: Browser;
let page: Page;
let problems: () => string[];
let clear: () => void;
let auth: [string, string];
let login = '';

beforeAll(async () => {
  [pb, gcs, browser] = await Promise.all([startPatchbay('embedded'), startFakeGcs({ media: 'ok' }), launchBrowser()]);
  ({ login, auth } = await newConsolePartner(pb.origin, pb.token, 'Fidelity Ltd', 'fid'));
  ({ page, problems, clear } = await watchedPage(browser));
  await page.goto(`${pb.origin}/console`, { waitUntil: 'networkidle0' });
  await typeInto(page, '#sign-in-username', login);
  await typeInto(page, '#sign-in-password', CONSOLE_PASSWORD);
  await clickText(page, 'Sign in', '#sign-in');
  await page.waitForSelector('header.top .who', { visible: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([pb?.stop(), gcs?.stop()]);
}, 60_000);

afterEach(() => {
  const seen = problems();
  clear();
  expect(seen).toEqual([]);
});

const view = (name: string) => clickText(page, name, 'nav.tabs');

test('an external container shows its provider and its counts: no meters, no upload form', async () => {
  const ext = await request(pb.origin)
    .post(`${V2}/storage/containers`)
    .set(...auth)
    .send({ name: 'bucket', type: 'gcp_storage', external_attributes: { bucket: 'media', endpoint: gcs.endpoint } });
  expect(ext.status).toBe(200);
  await view('Storage');
  const row = `tr[data-container-sid="${ext.body.container_sid}"]`;
  await page.waitForSelector(row, { visible: true });
  expect(await page.$eval(`${row} .provider`, (el) => el.textContent)).toBe('Google Cloud Storage (external)');
  expect(await page.$$(`${row} meter`)).toHaveLength(0);
  expect(await page.$$eval(`${row} td.count`, (tds) => tds.map((td) => td.textContent))).toEqual(['0', '0 B']);
  // The internal default container keeps its meters and says where it is stored.
  const internal = (await page.$$('table.containers tbody tr meter')).length;
  expect(internal).toBe(2);
  await page.click(`${row} button`);
  await page.waitForSelector('section.files [role="note"]', { visible: true });
  expect(await page.$('#upload')).toBeNull();
  expect(await page.$eval('section.files [role="note"]', (el) => el.textContent)).toMatch(/Google Cloud Storage/);
}, 60_000);

test('a field’s error goes once its value is edited; the next refusal shows it again', async () => {
  await view('Endpoints');
  await clickText(page, 'New endpoint');
  await page.waitForSelector('#endpoint-create', { visible: true });
  await typeInto(page, '#endpoint-create-addresses-0-ip', 'not an ip!');
  await clickText(page, 'Create endpoint', '#endpoint-create');
  const error = '#endpoint-create .field-error[data-field="addresses.0.ip"]';
  await page.waitForSelector(error, { visible: true });
  clear(); // the refused POST (400) is logged by the browser as a failed resource
  await page.type('#endpoint-create-addresses-0-ip', 'x');
  await page.waitForSelector(error, { hidden: true });
  expect(await page.$eval('#endpoint-create-addresses-0-ip', (el) => el.getAttribute('aria-describedby'))).toBeNull();
  await clickText(page, 'Create endpoint', '#endpoint-create');
  await page.waitForSelector(error, { visible: true });
  clear();
  await clickText(page, 'Cancel', '#endpoint-create').catch(() => undefined);
}, 60_000);

test('at a phone’s width (390 px) no view is wider than the screen', async () => {
  await page.setViewport({ width: 390, height: 844 });
  try {
    for (const [name, ready] of [
      ['Storage', 'table.containers tbody tr'],
      ['Endpoints', 'table.endpoint-list tbody tr'],
      ['Push', 'nav.tabs'],
      ['Records', 'nav.tabs'],
    ] as const) {
      await view(name);
      await page.waitForSelector(ready, { visible: true });
      await settled(page);
      const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
      // What sticks out, should anything: the elements that leave a parent still inside the screen.
      const wide =
        widths[0] > widths[1]
          ? await page.evaluate(
              `[...document.querySelectorAll('body *')].filter((e) => ` +
                `e.getBoundingClientRect().right > window.innerWidth + 1 && ` +
                `e.parentElement.getBoundingClientRect().right <= window.innerWidth + ` +
                `1).slice(0, 5).map((e) => e.tagName + '.' + e.className)`,
            )
          : [];
      expect({ name, overflow: widths[0] > widths[1], wide }).toEqual({ name, overflow: false, wide: [] });
    }
    // The storage view with a container's files open too.
    await view('Storage');
    await (await page.waitForSelector('table.containers tbody tr button', { visible: true }))!.click();
    await page.waitForSelector('section.files', { visible: true });
    const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
  } finally {
    await page.setViewport({ width: 1280, height: 860 });
  }
}, 60_000);
