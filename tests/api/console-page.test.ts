/**
 * The partner console at `GET /console` (decisions §31) over HTTP: an HTML page whose every script and
 * stylesheet is served from here (and resolves), under a strict Content-Security-Policy that lets
 * the audio player reach the file server's origin and nothing else; hashed assets cached as
 * immutable, the page itself revalidated. (tests/console drives it in a real browser.)
 */
import { http, instance } from '../harness/api';

const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );

test(
  '/console is HTML with only local scripts and styles, under a policy ' +
    'with no inline script, no eval, media from the file server',
  async () => {
    const res = await http().get('/console');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const storageOrigin = new URL(instance().storageUrl).origin;
    expect(storageOrigin).not.toBe(instance().origin); // the file server listens on its own port
    expect(csp.get('media-src')).toEqual(["'self'", storageOrigin]);
    for (const [name, sources] of csp)
      expect({ name, unsafe: sources.filter((s) => /unsafe-(inline|eval)|^\*$|^https?:$/.test(s)) }).toEqual({
        name,
        unsafe: [],
      });
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    const html = res.text;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/\sstyle=|<style/); // no inline style
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((a) => !a.startsWith('data:'));
    expect(assets.map((a) => a.replace(/-[A-Z0-9]{8}\./, '-HASH.')).sort()).toEqual([
      '/console/assets/app-HASH.css',
      '/console/assets/app-HASH.js',
    ]);
    for (const asset of assets) {
      const got = await http().get(asset);
      expect({ asset, status: got.status }).toEqual({ asset, status: 200 });
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(got.headers['content-type']).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(got.headers['content-security-policy']).toBeDefined();
    }
  },
);

test('an unknown console asset is a 404, and nothing outside the build is reachable', async () => {
  expect((await http().get('/console/assets/app-AAAAAAAA.js')).status).toBe(404);
  expect((await http().get('/console/assets/..%2F..%2Fpackage.json')).status).toBe(404);
  expect((await http().get('/console/index.html')).status).toBe(404);
  const slash = await http().get('/console/');
  expect(slash.status).toBe(301);
  expect(slash.headers.location).toBe('/console');
});
