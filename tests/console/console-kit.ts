import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import request from 'supertest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots the README shows are written (docs/console/<view>.png). */
export const SHOTS = path.resolve(__dirname, '../../docs/console');

/** The password of every partner the console tests sign in as. */
export const CONSOLE_PASSWORD = 'console-password-1';

export interface ConsolePartner {
  partner_sid: string;
  login: string;
  auth: [string, string];
}

/** A partner named `name` (its login `<loginPrefix><time>`) created by the instance's admin, and its token. */
export async function newConsolePartner(
  origin: string,
  adminToken: string,
  name: string,
  loginPrefix: string,
): Promise<ConsolePartner> {
  const login = `${loginPrefix}${Date.now().toString(36)}`;
  const created = await request(origin)
    .post('/core/v2/partners')
    .set('Authorization', `Bearer ${adminToken}`)
    .send({ name, login, password: CONSOLE_PASSWORD });
  if (created.status !== 200)
    throw new Error(`partner create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const tok = await request(origin)
    .post('/core/v2/oauth/token')
    .type('form')
    .send({ grant_type: 'password', username: login, password: CONSOLE_PASSWORD });
  return { partner_sid: created.body.partner_sid, login, auth: ['Authorization', `Bearer ${tok.body.access_token}`] };
}

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'],
    defaultViewport: { width: 1280, height: 860 },
  });
}

/**
 * A page that records what must never happen: an uncaught exception (pageerror), a console
 * error (a failed resource, a CSP violation, a React-style warning logged as error), a failed
 * request. `problems()` lists them; each test expects none.
 */
export async function watchedPage(
  browser: Browser,
): Promise<{ page: Page; problems: () => string[]; clear: () => void }> {
  const page = await browser.newPage();
  let seen: string[] = [];
  page.on('pageerror', (e) => {
    seen.push(`pageerror: ${(e as Error).message ?? String(e)}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.push(`console.error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => {
    // A media element that is closed cancels its own range request: not a failure of the page.
    if (r.resourceType() === 'media' && r.failure()?.errorText === 'net::ERR_ABORTED') return;
    // Chromium reports a 204 whose (empty) body the page never read as aborted: the call succeeded.
    if (r.response()?.status() === 204 && r.failure()?.errorText === 'net::ERR_ABORTED') return;
    seen.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`);
  });
  return {
    page,
    problems: () => seen,
    clear: () => {
      seen = [];
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/**
 * Resolves once the page is at rest: no request for 100 ms, then two frames drawn (what those
 * answers or a new viewport laid out is on screen). Before a check of the layout.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForNetworkIdle({ idleTime: 100, timeout: 10_000 });
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** Clicks the button (or link) whose visible text is `text`, inside `scope` (a selector) when given. */
export async function clickText(page: Page, text: string, scope = 'body'): Promise<void> {
  const handle = await page.waitForSelector(
    `${scope} ::-p-xpath(.//button[normalize-space(.)=${JSON.stringify(text)}])`,
    { visible: true, timeout: 10_000 },
  );
  if (!handle) throw new Error(`no button "${text}" in ${scope}`);
  await handle.click();
}

/** Replaces the value of an input (by selector) as a person would type it. */
export async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  const el = await page.waitForSelector(selector, { visible: true, timeout: 10_000 });
  await el!.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await el!.type(value);
}
