/**
 * The console's Overview (docs/interface-notes.md, Usage), first after sign-in, in a real browser
 * against one embedded Patchbay of its own whose threshold-worker ticks every second (so storage
 * snapshots exist): totals and charts of the records the test wrote, the values under the pointer,
 * the same numbers as tables, a range of 13 months, at desktop and phone width, with no CSP violation
 * (uPlot draws on a canvas and sets styles through the CSSOM only). Screenshots: docs/console/overview.png
 * and phone-overview.png.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Browser, Page } from 'puppeteer-core';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { until } from '../support/poll';
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
const HOUR = 3_600_000;

let pb: PatchbayInstance;
let browser: Browser;
let page: Page;
let problems: () => string[];
let clear: () => void;
let auth: [string, string];

/** The local day (the browser's zone is this process's) of an instant, as the tables print it. */
const localDay = (t: number) => new Date(t).toLocaleDateString('en-CA');
const now = Date.now();
/** Two calls yesterday (one answered, 90 s), three today (two answered, 60 s each). */
const CALL_TIMES = [now - 26 * HOUR, now - 25 * HOUR, now - 3 * HOUR, now - 2 * HOUR, now - HOUR];
const call = (t: number, i: number) => ({
  dr_sid: randomUUID(),
  date_start: new Date(t - 120_000).toISOString(),
  date_stop: new Date(t).toISOString(),
  sipcause: [0, 2, 3].includes(i) ? '200' : '486',
  duration_billing: i === 0 ? '90' : [2, 3].includes(i) ? '60' : '0',
  price: '0.01',
});

beforeAll(async () => {
  [pb, browser] = await Promise.all([startPatchbay('embedded', { THRESHOLD_SWEEP_INTERVAL: '1' }), launchBrowser()]);
  const partner = await newConsolePartner(pb.origin, pb.token, 'Overview Telecom', 'overview');
  const login = partner.login;
  auth = partner.auth;
  const calls = await request(pb.origin)
    .post(`${V2}/calls/call_drs`)
    .set(...auth)
    .send(CALL_TIMES.map(call));
  expect(calls.body).toMatchObject({ stored: 5 });
  const sms = [0, 1, 2, 3].map((i) => ({
    dr_sid: randomUUID(),
    date_insert: new Date(now - (i + 1) * HOUR).toISOString(),
    message_segments: 1,
    price: '0.005',
  }));
  expect(
    (
      await request(pb.origin)
        .post(`${V2}/sms/message_drs`)
        .set(...auth)
        .send(sms)
    ).body,
  ).toMatchObject({
    stored: 4,
  });
  // A file in the default container, and its snapshot of today kept by the worker.
  const containers = await request(pb.origin)
    .get(`${V2}/storage/containers`)
    .set(...auth);
  const sid = containers.body.items[0].container_sid;
  const up = await request(pb.origin)
    .post(`${V2}/storage/files?container_sid=${sid}&name=a.bin`)
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.alloc(2048, 1));
  expect(up.status).toBe(201);
  await until('the storage snapshot', 30_000, async () => {
    const u = await request(pb.origin)
      .get(`${V2}/storage/containers/${sid}/usage`)
      .set(...auth);
    return u.body.items?.some((i: { bytes: number }) => i.bytes === 2048) ? true : undefined;
  });

  ({ page, problems, clear } = await watchedPage(browser));
  // Every CSP violation the page sees, whether or not the browser also logs it.
  await page.evaluateOnNewDocument(`
    window.__csp = [];
    document.addEventListener('securitypolicyviolation',
      (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
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

afterEach(async () => {
  const seen = problems();
  clear();
  expect(seen).toEqual([]);
  expect(await page.evaluate('window.__csp')).toEqual([]);
});

const charts = () =>
  page.waitForFunction('document.querySelectorAll(".chart canvas").length === 5', { timeout: 15_000 });
const totals = () =>
  page.$$eval('dl.totals > div', (ds) =>
    Object.fromEntries(ds.map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent])),
  );
/** The rows of a chart's table: [date, ...values]. */
const tableOf = (title: string) =>
  page.$$eval(
    '.chart',
    (figs, t) => {
      const fig = figs.find((f) => f.querySelector('figcaption')?.textContent === t);
      return [...(fig?.querySelectorAll('.chart-table tbody tr') ?? [])].map((tr) =>
        [...tr.children].map((c) => c.textContent ?? ''),
      );
    },
    title,
  );

test('the overview is the first view: totals, five charts, and each chart’s numbers as a table', async () => {
  expect(await page.$eval('main#view', (m) => m.getAttribute('data-view'))).toBe('overview');
  await charts();
  expect(await totals()).toEqual({
    Calls: '5',
    Minutes: '3.5',
    ASR: '60 %',
    ACD: '1.17 min',
    Cost: '0.07',
    Messages: '4',
  });
  const calls = (await tableOf('Calls')).filter((r) => r[1] !== '0');
  const expected = new Map<string, [number, number]>();
  CALL_TIMES.forEach((t, i) => {
    const day = localDay(t);
    const [n, a] = expected.get(day) ?? [0, 0];
    expected.set(day, [n + 1, a + ([0, 2, 3].includes(i) ? 1 : 0)]);
  });
  expect(calls).toEqual([...expected].map(([day, [n, a]]) => [day, String(n), String(a)]));
  expect((await tableOf('Calls')).length).toBeGreaterThanOrEqual(30);
  expect((await tableOf('Storage per container')).at(-1)).toEqual([new Date().toISOString().slice(0, 10), '2.0 KiB']);
  await screenshot(page, 'overview');
}, 60_000);

test('the values of the bucket under the pointer are in the chart’s legend', async () => {
  await charts();
  const fig = (await page.$$('.chart'))[0];
  const over = await fig.$('.u-over');
  const box = (await over!.boundingBox())!;
  // The right edge: the last bucket, today.
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  const legend = await fig.$$eval('.u-legend .u-series', (rows) =>
    rows.map((r) => [r.querySelector('.u-label')?.textContent, r.querySelector('.u-value')?.textContent]),
  );
  const today = CALL_TIMES.filter((t) => localDay(t) === localDay(now)).length;
  expect(legend[1]).toEqual(['Calls', String(today)]);
  expect(legend[0][1]).toBe(new Date(now).toLocaleDateString('en-US'));
});

test('a range of 13 months, per month: the charts are drawn again from the API', async () => {
  const asked = page.waitForRequest(
    (r) => r.url().includes('/calls/call_drs/usage') && r.url().includes('group_by=month'),
  );
  await page.select('#overview-unit', 'month');
  await page.select('#overview-range-select', '13m');
  await asked;
  await page.waitForFunction(
    `[...document.querySelectorAll('.chart')].find((f) => f.querySelector('figcaption').textContent === 'Calls')` +
      `?.querySelectorAll('.chart-table tbody tr').length >= 13`,
    { timeout: 15_000 },
  );
  await charts();
  const months = await tableOf('Calls');
  expect(months.length).toBeGreaterThanOrEqual(13);
  expect(months.length).toBeLessThanOrEqual(14);
  expect(months.map((r) => Number(r[1])).reduce((a, b) => a + b)).toBe(5);
  await page.select('#overview-unit', 'day');
  await page.select('#overview-range-select', '30d');
});

test('at a phone’s width (390 px) the overview is no wider than the screen', async () => {
  await page.setViewport({ width: 390, height: 844 });
  try {
    await clickText(page, 'Storage', 'nav.tabs');
    await clickText(page, 'Overview', 'nav.tabs');
    await charts();
    await settled(page);
    const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    const canvasWidths = await page.$$eval('.chart canvas', (cs) => cs.map((c) => c.getBoundingClientRect().right));
    for (const right of canvasWidths) expect(right).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-overview');
  } finally {
    await page.setViewport({ width: 1280, height: 860 });
  }
});

test('the CSP watch sees a violation: an inline style attribute set on purpose is refused and counted', async () => {
  await page.evaluate(`document.body.insertAdjacentHTML('beforeend', '<p id="csp-probe" style="color: red">x</p>')`);
  await page.waitForFunction('window.__csp.length > 0', { timeout: 5_000 });
  expect(await page.evaluate('window.__csp')).toEqual([expect.stringMatching(/^style-src/)]);
  await page.evaluate(`window.__csp = []; document.getElementById('csp-probe').remove()`);
  clear(); // the browser also logs the refusal as a console error
});
