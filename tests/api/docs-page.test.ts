/**
 * The API reference at `GET /docs` (decisions §26): Swagger UI rendering the OpenAPI document, with
 * every asset served by Patchbay itself. Checked twice: the HTML and its policy (each asset local,
 * each served; a Content-Security-Policy that allows no other origin), and a real browser
 * (Debian's chromium through puppeteer-core) that renders every operation while loading nothing
 * from anywhere else — and is refused a remote image when one is slipped in.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { http, instance } from '../harness/api';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test('/docs is HTML whose scripts, styles and icons are all served from here, under a local-only policy', async () => {
  const res = await http().get('/docs');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  for (const directive of ['script-src', 'style-src', 'img-src', 'font-src']) {
    const sources = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(directive))!
      .split(/\s+/)
      .slice(1);
    expect({ directive, remote: sources.filter((s) => /^(https?:|\*|\w+\.\w+)/.test(s)) }).toEqual({
      directive,
      remote: [],
    });
  }
  const html = res.text;
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
  const assets = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets.length).toBeGreaterThanOrEqual(3);
  for (const asset of assets) {
    expect(asset).toMatch(/^\/docs\/assets\//);
    const got = await http().get(asset);
    expect({ asset, status: got.status }).toEqual({ asset, status: 200 });
  }
});

describe('in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('the reference renders every operation, loading nothing from another origin', async () => {
    const { origin } = instance();
    const page = await browser.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      requested.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${origin}/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const apiDocument = (await http().get('/core/v2/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(apiDocument.paths).flatMap((item) =>
      Object.keys(item).filter((k) => k !== 'servers'),
    );
    expect(await page.$$eval('.opblock', (els) => els.length)).toBe(operations.length);
    expect(await page.$eval('.info .title', (el) => el.textContent)).toContain('Patchbay core API');
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(requested).toContain(`${origin}/core/v2/openapi.json`);
    expect(errors).toEqual([]);

    // The policy is what keeps it so: an asset from elsewhere is refused by the browser.
    // (A string: this project's TypeScript has no DOM library.)
    const refused = await page.evaluate(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
      const img = document.createElement('img');
      img.src = 'https://cdn.example.com/logo.png';
      document.body.appendChild(img);
      setTimeout(() => resolve('not refused'), 5000);
    })`);
    expect(refused).toBe('img-src');
    await page.close();
  }, 90_000);
});
