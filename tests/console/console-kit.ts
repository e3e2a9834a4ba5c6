import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots the README shows are written (docs/console/<view>.png). */
export const SHOTS = path.resolve(__dirname, '../../docs/console');

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
