/**
 * The partner console (decisions §31) in a real browser: Debian's chromium through puppeteer-core,
 * against one embedded Patchbay started for this file with a fake FCM beside it
 * (tests/support/fake-push-world.ts). The tests run in order on one page, signed in once, as a
 * partner would use it: sign in, storage, upload, play, endpoints, push, records. Each saves a
 * screenshot of its view into docs/console/ (the README shows them), and none may leave an
 * uncaught page error, a console error or a failed request behind.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, HTTPResponse, Page } from 'puppeteer-core';
import { FakePushWorld, deviceToken } from '../support/fake-push-world';
import { tone } from '../support/media';
import { until } from '../support/poll';
import {
  clickText,
  CONSOLE_PASSWORD,
  launchBrowser,
  newConsolePartner,
  screenshot,
  typeInto,
  watchedPage,
  type ConsolePartner,
} from './console-kit';

const V2 = '/core/v2';

let w: FakePushWorld;
let browser: Browser;
let page: Page;
let problems: () => string[];
let clear: () => void;
let partner: ConsolePartner;
/** The token the console was issued at sign-in (read off the wire: the page keeps it to itself). */
let consoleToken = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-console-'));

beforeAll(async () => {
  [w, browser] = await Promise.all([
    FakePushWorld.start('embedded', { sendDeadlineMs: 4000, attemptTimeoutMs: 2500, maxRetries: 1, retryBaseMs: 50 }),
    launchBrowser(),
  ]);
  partner = await newConsolePartner(w.pb.origin, w.pb.token, 'Acme Telecom', 'console');
  ({ page, problems, clear } = await watchedPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await w?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  const seen = problems();
  clear();
  expect(seen).toEqual([]);
});

const view = (name: string) =>
  clickText(page, { storage: 'Storage', endpoints: 'Endpoints', push: 'Push', records: 'Records' }[name]!, 'nav.tabs');
const rowSids = (selector: string, attr: string) =>
  page.$$eval(selector, (rows, a) => rows.map((r) => r.getAttribute(a as string) ?? ''), attr);

test('sign in with login and password; a wrong password shows the API’s message', async () => {
  await page.goto(`${w.pb.origin}/console`, { waitUntil: 'networkidle0' });
  await typeInto(page, '#sign-in-username', partner.login);
  await typeInto(page, '#sign-in-password', 'not-the-password');
  await clickText(page, 'Sign in', '#sign-in');
  const refused = await page.waitForSelector('.problem', { visible: true });
  expect(await refused!.evaluate((el) => el.textContent)).toMatch(/credentials|password|unauthor/i);
  // The browser logs the 401 of the refused grant as a failed resource: expected here, not a page error.
  clear();

  await typeInto(page, '#sign-in-password', CONSOLE_PASSWORD);
  const issued = page.waitForResponse((r) => r.url().endsWith('/core/v2/oauth/token') && r.status() === 200);
  await clickText(page, 'Sign in', '#sign-in');
  consoleToken = ((await (await issued).json()) as { access_token: string }).access_token;
  await page.waitForSelector('header.top .who', { visible: true });
  expect(await page.$eval('header.top .who', (el) => el.textContent)).toBe('Acme Telecom');
  // The token is in memory only: nothing in the URL or in web storage.
  expect(page.url()).toBe(`${w.pb.origin}/console`);
  expect(
    await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage), document.cookie])'),
  ).toBe('[[],[],""]');
}, 60_000);

test('Storage lists the partner’s containers by SID, with usage against quota', async () => {
  const second = await w
    .api()
    .post(`${V2}/storage/containers`)
    .set(...partner.auth)
    .send({ name: 'voicemail', threshold_action: 'reject', threshold_files: 50, quota_files: 100 });
  expect(second.status).toBe(200);
  const listed = await w
    .api()
    .get(`${V2}/storage/containers`)
    .set(...partner.auth);
  const sids = (listed.body.items as Array<{ container_sid: string }>).map((c) => c.container_sid).sort();
  expect(sids).toHaveLength(2);
  await view('storage');
  await page.waitForSelector(`tr[data-container-sid="${second.body.container_sid}"]`, { visible: true });
  expect((await rowSids('table.containers tbody tr', 'data-container-sid')).sort()).toEqual(sids);
  const meter = await page.$eval(`tr[data-container-sid="${second.body.container_sid}"] meter`, (m) => [
    m.getAttribute('max'),
    m.getAttribute('high'),
  ]);
  expect(meter).toEqual(['100', '50']);
  await screenshot(page, 'storage');
}, 60_000);

let uploaded: { file_sid: string; publish_uri: string };
test(
  'upload through the file picker (a progress bar, then listed without a ' +
    'reload) and by drag and drop; delete after confirming',
  async () => {
    const listed = await w
      .api()
      .get(`${V2}/storage/containers`)
      .query({ filter: 'is_default eq true' })
      .set(...partner.auth);
    const container = listed.body.items[0].container_sid as string;
    await page.click(`tr[data-container-sid="${container}"] button`);
    await page.waitForSelector('#upload', { visible: true });
    await page.evaluate('window.__sameDocument = true');
    const file = path.join(tmp, 'welcome-greeting.wav');
    fs.writeFileSync(file, tone('wav', 4));
    const picker = await page.waitForSelector('#upload-data');
    await picker!.uploadFile(file);
    await page.select('#upload-publish', 'file_sid');
    await page.select('#upload-type', 'audio');
    await page.waitForSelector('#upload-desired_format', { visible: true });
    // The progress bar is there while the bytes go out (XMLHttpRequest upload progress).
    await page.evaluate(`window.__progress = []; new MutationObserver(() => {
    const bar = document.querySelector('#upload-progress');
    if (bar) window.__progress.push([bar.value, bar.max]);
  }).observe(document.body, { subtree: true, childList: true, attributes: true })`);
    await clickText(page, 'Upload', '#upload');
    await page.waitForSelector('.upload-done', { visible: true, timeout: 20_000 });
    const progress = (await page.evaluate('window.__progress')) as Array<[number, number]>;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.some(([, max]) => max >= fs.statSync(file).size)).toBe(true);
    expect(await page.$('#upload-progress')).toBeNull(); // gone once the upload is done
    const row = await page.waitForSelector('tr[data-file-sid] ::-p-text(welcome-greeting.wav)', { visible: true });
    expect(row).not.toBeNull();
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    const files = await w
      .api()
      .get(`${V2}/storage/files`)
      .query({ filter: `container_sid eq "${container}"` })
      .set(...partner.auth);
    expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['welcome-greeting.wav']);
    uploaded = files.body.items[0];
    expect(uploaded.publish_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/f\//);
    expect(await rowSids('table.file-list tbody tr[data-file-sid]', 'data-file-sid')).toEqual([uploaded.file_sid]);
    // The name filter asks the API (a page at a time), and an unmatched name lists nothing.
    await typeInto(page, '#file-name-filter', 'nothing-like-it');
    await clickText(page, 'Filter', 'form.filter');
    await page.waitForSelector('table.file-list ::-p-text(No files.)', { visible: true });
    await typeInto(page, '#file-name-filter', 'greeting');
    await clickText(page, 'Filter', 'form.filter');
    await page.waitForSelector(`tr[data-file-sid="${uploaded.file_sid}"]`, { visible: true });
    await screenshot(page, 'upload');

    // Drag and drop: a file dropped on the zone is chosen like a picked one.
    await typeInto(page, '#file-name-filter', ' ');
    await clickText(page, 'Filter', 'form.filter');
    await page.evaluate(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['hello, console'], 'dropped-note.txt', { type: 'text/plain' }));
    const zone = document.querySelector('[data-testid=drop-zone]');
    for (const type of ['dragover', 'drop'])
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  })()`);
    await page.waitForSelector('.drop-zone .chosen ::-p-text(dropped-note.txt)', { visible: true });
    await page.select('#upload-type', 'file');
    await clickText(page, 'Upload', '#upload');
    const dropped = await page.waitForSelector('tr[data-file-sid] ::-p-text(dropped-note.txt)', { visible: true });
    const droppedSid = await dropped!.evaluate((el) => el.closest('tr')!.getAttribute('data-file-sid')!);

    // Delete asks first; Escape backs out, and the confirming button (focused) deletes.
    await clickText(page, 'Delete', `tr[data-file-sid="${droppedSid}"]`);
    await page.waitForSelector(`tr[data-file-sid="${droppedSid}"] .confirm`, { visible: true });
    await page.keyboard.press('Escape');
    await page.waitForSelector(`tr[data-file-sid="${droppedSid}"] .confirm`, { hidden: true });
    expect(
      (
        await w
          .api()
          .get(`${V2}/storage/files/${droppedSid}`)
          .set(...partner.auth)
      ).status,
    ).toBe(200);
    await clickText(page, 'Delete', `tr[data-file-sid="${droppedSid}"]`);
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Yes, delete');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`tr[data-file-sid="${droppedSid}"]`, { hidden: true });
    expect(
      (
        await w
          .api()
          .get(`${V2}/storage/files/${droppedSid}`)
          .set(...partner.auth)
      ).status,
    ).toBe(404);
    expect(await rowSids('table.file-list tbody tr[data-file-sid]', 'data-file-sid')).toEqual([uploaded.file_sid]);
  },
  60_000,
);

test('an audio file plays from its publish_uri, fetched with a Range request', async () => {
  const media: HTTPResponse[] = [];
  const onResponse = (r: HTTPResponse) => {
    if (uploaded && r.url().startsWith(uploaded.publish_uri)) media.push(r);
  };
  page.on('response', onResponse);
  // Media events do not bubble: a capturing listener on the document hears the player's `canplay`.
  await page.evaluate(`document.addEventListener('canplay', (e) => { window.__canplay = e.target.src; }, true)`);
  try {
    await clickText(page, 'Play', `tr[data-file-sid="${uploaded.file_sid}"]`);
    await page.waitForSelector('.player audio');
    expect(await page.$eval('.player audio', (a) => a.getAttribute('src'))).toBe(uploaded.publish_uri);
    const played = await page.waitForFunction('window.__canplay', { timeout: 20_000 });
    expect(await played.jsonValue()).toBe(uploaded.publish_uri);
  } finally {
    page.off('response', onResponse);
  }
  // The file server answered a range: the browser asked with Range, and it got 206 + Content-Range.
  const ranged = media.find((r) => r.status() === 206);
  expect(ranged?.request().headers().range).toMatch(/^bytes=\d+-/);
  expect(ranged?.headers()['content-range']).toMatch(/^bytes \d+-\d+\/\d+$/);
  await screenshot(page, 'player');
  // A format choice asks the file server to transcode on the way (f=).
  await page.select('#play-format', 'mp3');
  await page.waitForFunction(`document.querySelector('.player audio').src.endsWith('?f=mp3')`);
  await clickText(page, 'Close player', `tr[data-file-sid="${uploaded.file_sid}"]`);
}, 60_000);

test(
  'encryption: register a key, encrypt the container to it; an encrypted ' +
    'file is marked and not offered to the player',
  async () => {
    const container = await page.$eval('.container-keys h2 code', (c) => c.textContent ?? '');
    expect(container).toMatch(/^[0-9a-f-]{36}$/);
    // A key the API refuses: its message under the field it names.
    await typeInto(
      page,
      '#key-public_key',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
    );
    await clickText(page, 'Register key', '.container-keys');
    const refused = await page.waitForSelector('.container-keys [data-field="public_key"]', { visible: true });
    expect(await refused!.evaluate((e) => e.textContent)).toMatch(/ssh-ed25519/);
    clear(); // the refused POST (422) is logged by the browser as a failed resource
    const recipient = execFileSync('age-keygen', { encoding: 'utf8' }).match(/public key: (age1\w+)/)![1];
    await typeInto(page, '#key-name', 'laptop');
    await typeInto(page, '#key-public_key', recipient);
    await clickText(page, 'Register key', '.container-keys');
    const row = await page.waitForSelector('.key-list tbody tr[data-key-sid]', { visible: true });
    const keySid = (await row!.evaluate((r) => r.getAttribute('data-key-sid')))!;
    expect(await page.$eval('.key-list .fingerprint', (f) => f.textContent)).toMatch(/^SHA256:/);
    await clickText(page, 'Save keys', '.container-keys');
    await page.waitForFunction(`document.querySelector('.container-keys .saved')?.textContent.includes('1 key')`);
    const saved = await w
      .api()
      .get(`${V2}/storage/containers/${container}`)
      .set(...partner.auth);
    expect(saved.body.encryption_key_sids).toEqual([keySid]);
    // A recording stored from now on is encrypted: marked, and no Play button.
    const up = await w
      .api()
      .post(`${V2}/storage/files?container_sid=${container}&name=sealed-call.wav&type=audio`)
      .set(...partner.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(tone('wav', 1));
    expect(up.status).toBe(201);
    expect(up.body.encryption).not.toBeNull();
    await typeInto(page, '#file-name-filter', 'sealed-call');
    await clickText(page, 'Filter', 'form.filter');
    const sealedRow = `tr[data-file-sid="${up.body.file_sid}"]`;
    await page.waitForSelector(sealedRow, { visible: true });
    expect(await page.$eval(sealedRow, (r) => [...r.querySelectorAll('.tag')].map((t) => t.textContent))).toContain(
      'encrypted',
    );
    expect(await page.$$eval(`${sealedRow} button`, (bs) => bs.map((b) => b.textContent))).not.toContain('Play');
    await screenshot(page, 'encryption');
    // Back to a plain container, so the views after this one are as before.
    await page.click(`.key-list tr[data-key-sid="${keySid}"] input[type="checkbox"]`);
    await clickText(page, 'Save keys', '.container-keys');
    await page.waitForFunction(`document.querySelector('.container-keys .saved')?.textContent.includes('unencrypted')`);
    await typeInto(page, '#file-name-filter', ' ');
    await clickText(page, 'Filter', 'form.filter');
  },
  60_000,
);

test('create a third_party endpoint (the API’s message next to the field it names), then edit it', async () => {
  await view('endpoints');
  await page.waitForSelector('table.endpoint-list tbody tr', { visible: true });
  // The System Gateway is listed and cannot be deleted.
  const system = await page.$eval('table.endpoint-list tbody tr', (tr) => [
    tr.children[1].textContent,
    tr.querySelector('button.danger')!.hasAttribute('disabled'),
  ]);
  expect(system).toEqual(['system_gateway', true]);

  await clickText(page, 'New endpoint');
  await page.waitForSelector('#endpoint-create', { visible: true });
  await typeInto(page, '#endpoint-create-name', 'Office PBX');
  await typeInto(page, '#endpoint-create-addresses-0-ip', 'not an ip!');
  await clickText(page, 'Create endpoint', '#endpoint-create');
  const error = await page.waitForSelector('#endpoint-create .field-error[data-field="addresses.0.ip"]', {
    visible: true,
  });
  expect(await error!.evaluate((el) => el.textContent)).toBe('must be an IPv4 or IPv6 address or a host name');
  expect(await page.$eval('#endpoint-create-addresses-0-ip', (el) => el.getAttribute('aria-describedby'))).toBe(
    'endpoint-create-addresses-0-ip-error',
  );
  await screenshot(page, 'endpoint-error');
  clear(); // the refused POST (400) is logged by the browser as a failed resource
  await typeInto(page, '#endpoint-create-addresses-0-ip', '198.51.100.7');
  await typeInto(page, '#endpoint-create-capacity', '4');
  await clickText(page, 'Create endpoint', '#endpoint-create');
  const row = await page.waitForSelector('tr[data-endpoint-sid] ::-p-text(Office PBX)', { visible: true });
  const sid = await row!.evaluate((el) => el.closest('tr')!.getAttribute('data-endpoint-sid')!);
  expect(await page.$eval(`tr[data-endpoint-sid="${sid}"]`, (tr) => tr.textContent)).toContain(
    '198.51.100.7:5060/udp (any)',
  );

  await clickText(page, 'Edit', `tr[data-endpoint-sid="${sid}"]`);
  await page.waitForSelector('#endpoint-edit', { visible: true });
  expect(await page.$eval('#endpoint-edit-type', (el) => el.hasAttribute('disabled'))).toBe(true);
  await typeInto(page, '#endpoint-edit-name', 'Office PBX (main)');
  await typeInto(page, '#endpoint-edit-capacity', '12');
  await typeInto(page, '#endpoint-edit-addresses-0-port', '5080');
  await clickText(page, 'Save changes', '#endpoint-edit');
  await page.waitForSelector(`tr[data-endpoint-sid="${sid}"] ::-p-text(Office PBX (main))`, { visible: true });
  const stored = await w
    .api()
    .get(`${V2}/endpoints/${sid}`)
    .set(...partner.auth);
  expect(stored.body).toMatchObject({
    type: 'third_party',
    name: 'Office PBX (main)',
    capacity: 12,
    addresses: [{ ip: '198.51.100.7', port: 5080 }],
  });
  await screenshot(page, 'endpoints');
}, 60_000);

test(
  'push: an FCM application from its key file, two devices, a test ' + 'notification with each device’s result',
  async () => {
    await view('push');
    const account = w.fcmAccount('console');
    const keyFile = path.join(tmp, 'service-account.json');
    fs.writeFileSync(keyFile, JSON.stringify(account.json));
    await clickText(page, 'New application');
    await typeInto(page, '#application-create-name', 'Acme Phone');
    const keyPicker = await page.waitForSelector('#application-create-google_credentials');
    await keyPicker!.uploadFile(keyFile);
    await new Promise((r) => setTimeout(r, 200)); // the file is read (Base64) as it is picked: nothing shows it
    await clickText(page, 'Create application', '#application-create');
    await page.waitForSelector('#devices-title', { visible: true });
    const apps = await w
      .api()
      .get(`${V2}/push/applications`)
      .set(...partner.auth);
    expect(apps.body.items).toHaveLength(1);
    // The list reloads after the devices panel opens: wait for the row rather than read it at once.
    const appRow = `tr[data-application-sid="${apps.body.items[0].application_sid}"]`;
    await page.waitForSelector(`${appRow} ::-p-text(FCM)`, { visible: true });
    // Credentials are write-only: the page never holds the key.
    expect(await page.content()).not.toContain(account.json.private_key_id);

    const good = deviceToken('fcm');
    const dead = deviceToken('fcm');
    w.fcm.answerToken(dead, 'unregistered');
    for (const token of [good, dead]) {
      await typeInto(page, '#device-create-token', token);
      await clickText(page, 'Add device', '#device-create');
      await page.waitForSelector(`td.token[title="${token}"]`, { visible: true });
    }
    const devices = await w
      .api()
      .get(`${V2}/push/devices`)
      .set(...partner.auth);
    const sidOf = (token: string) =>
      (devices.body.items as Array<{ token: string; device_sid: string }>).find((d) => d.token === token)!.device_sid;
    await typeInto(page, '#notification-title', 'Hello from the console');
    await clickText(page, 'Send', '#notification');
    await page.waitForSelector('table.send-results', { visible: true, timeout: 20_000 });
    const results = await page.$$eval('table.send-results tbody tr', (rows) =>
      Object.fromEntries(rows.map((r) => [r.getAttribute('data-device-sid'), r.querySelector('.result')!.textContent])),
    );
    expect(results).toEqual({ [sidOf(good)]: 'success', [sidOf(dead)]: 'unregistered' });
    expect(await page.$eval('table.send-results caption', (el) => el.textContent)).toBe('Sent: 1 delivered, 1 failed');
    const got = w.fcm.forProject(account.projectId).find((r) => r.message.token === good);
    expect(got?.message.notification).toEqual({
      title: 'Hello from the console',
      body: 'If you can read this, push works.',
    });
    await screenshot(page, 'push');
  },
  60_000,
);

test(
  'records: calls a page at a time, next and previous by cursor, a date ' + 'range, CSV of the page; then messages',
  async () => {
    // 45 calls, one a minute from 2024-06-01 00:00, and 3 a day later (the date range keeps those out).
    const calls = Array.from({ length: 45 }, (_, i) => ({
      dr_sid: randomUUID(),
      date_start: new Date(Date.UTC(2024, 5, 1, 0, i, 0)).toISOString(),
      date_stop: new Date(Date.UTC(2024, 5, 1, 0, i, 30)).toISOString(),
      direction: 'outbound',
      number_src: '+15550100',
      number_dst: `+1555020${String(i).padStart(2, '0')}`,
      duration: '30',
      sipcause: '200',
      price: '0.0040',
    }));
    const later = Array.from({ length: 3 }, (_, i) => ({
      dr_sid: randomUUID(),
      date_start: `2024-06-02T10:0${i}:00.000Z`,
      date_stop: `2024-06-02T10:0${i}:30.000Z`,
    }));
    const ingested = await w
      .api()
      .post(`${V2}/calls/call_drs`)
      .set(...partner.auth)
      .send([...calls, ...later]);
    expect(ingested.body).toMatchObject({ stored: 48, rejected: 0 });
    await until('the ingested records to be listed', 15_000, async () => {
      const r = await w
        .api()
        .get(`${V2}/calls/call_drs`)
        .query({ limit: 100 })
        .set(...partner.auth);
      return r.body.count === 48 ? true : undefined;
    });
    const newestFirst = [...later]
      .reverse()
      .concat([...calls].reverse())
      .map((c) => c.dr_sid);

    // From the keyboard: the views are real buttons.
    await page.focus('nav.tabs button[data-view="records"]');
    await page.keyboard.press('Enter');
    const shown = async () => rowSids('table.record-list tbody tr[data-dr-sid]', 'data-dr-sid');
    const waitFirst = (sid: string) =>
      page.waitForSelector(`table.record-list tbody tr[data-dr-sid]:first-child[data-dr-sid="${sid}"]`, {
        visible: true,
      });
    await waitFirst(newestFirst[0]);
    expect(await shown()).toEqual(newestFirst.slice(0, 20));
    const requests: string[] = [];
    const onRequest = (r: { url: () => string }) => {
      if (r.url().includes('/calls/call_drs')) requests.push(r.url());
    };
    page.on('request', onRequest);
    await clickText(page, 'Next →', 'nav.pager');
    await waitFirst(newestFirst[20]);
    expect(await shown()).toEqual(newestFirst.slice(20, 40));
    await clickText(page, 'Next →', 'nav.pager');
    await waitFirst(newestFirst[40]);
    expect(await shown()).toEqual(newestFirst.slice(40));
    await clickText(page, '← Previous', 'nav.pager');
    await waitFirst(newestFirst[20]);
    expect(await shown()).toEqual(newestFirst.slice(20, 40));
    page.off('request', onRequest);
    // Cursor paging: after/before a record's SID, never an offset.
    expect(
      requests.map((u) => new URL(u).searchParams).map((q) => [q.has('after') || q.has('before'), q.has('offset')]),
    ).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
    expect(await page.$eval('nav.pager button:last-child', (b) => b.hasAttribute('disabled'))).toBe(false);

    // The date range: only 2024-06-01.
    // (A date input's typed form depends on the browser's locale: the value is set as a picker would.)
    for (const id of ['#records-range-from', '#records-range-to']) {
      await page.evaluate(
        `(() => { const el = document.querySelector('${id}'); el.value = ` +
          `'2024-06-01'; el.dispatchEvent(new Event('input', { bubbles: true ` +
          `})); })()`,
      );
    }
    await clickText(page, 'Apply', '#records-range');
    await waitFirst(newestFirst[3]);
    expect(await shown()).toEqual(newestFirst.slice(3, 23));

    // CSV of what is shown: the 20 rows of this page, every field, a header line.
    const client = await page.createCDPSession();
    await client.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: tmp, eventsEnabled: true });
    await clickText(page, 'Download CSV (this page)', '#records-range');
    const csvFile = await until('the CSV download', 10_000, () =>
      fs.readdirSync(tmp).find((f) => /^calls-.*\.csv$/.test(f)),
    );
    const lines = fs.readFileSync(path.join(tmp, csvFile), 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(21);
    expect(lines[0].split(',')).toContain('dr_sid');
    expect(lines.slice(1).map((l) => l.split(',')[lines[0].split(',').indexOf('dr_sid')])).toEqual(
      newestFirst.slice(3, 23),
    );
    // Every record of the range, not just the page: an export on the server, listed with its state, downloaded.
    await clickText(page, 'Export to a file (every record of the range)', 'section');
    await page.waitForSelector('table.export-list tbody tr[data-status="done"]', { visible: true, timeout: 20_000 });
    expect(
      await page.$eval('table.export-list tbody tr[data-status="done"] td:nth-child(3)', (td) => td.textContent),
    ).toBe('45');
    await page.click('table.export-list tbody tr[data-status="done"] button');
    const exported = await until('the export download', 10_000, () =>
      fs.readdirSync(tmp).find((f) => /^call-records-.*\.csv$/.test(f) && !f.endsWith('.crdownload')),
    );
    const rows = fs.readFileSync(path.join(tmp, exported), 'utf8').trim().split('\r\n');
    const sidAt = rows[0].split(',').indexOf('dr_sid');
    // Listing order (date_stop, oldest first): the 45 calls of 2024-06-01 as ingested.
    expect(rows.slice(1).map((l) => l.split(',')[sidAt])).toEqual(calls.map((c) => c.dr_sid));
    await screenshot(page, 'records');

    // Message records: the other kind, by date_insert.
    const messages = Array.from({ length: 3 }, (_, i) => ({
      dr_sid: randomUUID(),
      date_insert: `2024-06-03T08:0${i}:00.000Z`,
      type: 'sms',
      direction: 'inbound',
      message: `hi ${i}`,
    }));
    expect(
      (
        await w
          .api()
          .post(`${V2}/sms/message_drs`)
          .set(...partner.auth)
          .send(messages)
      ).body,
    ).toMatchObject({ stored: 3 });
    await until('the ingested messages to be listed', 15_000, async () =>
      (
        await w
          .api()
          .get(`${V2}/sms/message_drs`)
          .set(...partner.auth)
      ).body.count === 3
        ? true
        : undefined,
    );
    await clickText(page, 'Messages', 'section');
    await page.waitForSelector('table.record-list[data-kind="messages"]', { visible: true });
    // The date range still applies (2024-06-01): none of these; cleared, all three, newest first.
    await page.waitForSelector('table.record-list ::-p-text(No records.)', { visible: true });
    for (const id of ['#records-range-from', '#records-range-to']) {
      await page.evaluate(
        `(() => { const el = document.querySelector('${id}'); el.value = ''; ` +
          `el.dispatchEvent(new Event('input', { bubbles: true })); })()`,
      );
    }
    await clickText(page, 'Apply', '#records-range');
    await waitFirst(messages[2].dr_sid);
    expect(await shown()).toEqual([...messages].reverse().map((m) => m.dr_sid));
  },
  60_000,
);

test('sign out revokes the token and shows the sign-in form again', async () => {
  expect((await w.api().get(`${V2}/oauth/whoami`).set('Authorization', `Bearer ${consoleToken}`)).status).toBe(200);
  await clickText(page, 'Sign out', 'header.top');
  await page.waitForSelector('#sign-in', { visible: true });
  expect((await w.api().get(`${V2}/oauth/whoami`).set('Authorization', `Bearer ${consoleToken}`)).status).toBe(401);
  await screenshot(page, 'sign-in');
}, 30_000);
