import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';

export interface ConsoleSiteOptions {
  /** The built console (packages/console/dist): index.html and assets/. */
  dir: string;
  /** The API's public root (BASE_URL): the console calls it, and follows its pagination links. */
  apiUrl: string;
  /** The file server's public root (STORAGE_URL): `publish_uri`s start with it, and the audio player plays them. */
  storageUrl: string;
}

/** Hashed asset names as esbuild writes them (`app-<hash>.js`): their content never changes under a name. */
const HASHED = /^[a-z]+-[A-Z0-9]{8}\.(js|css)(\.map)?$|^[a-z]+-[A-Z0-9]{8}\.(js|css)\.LEGAL\.txt$/;
const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/**
 * Scripts and styles from this origin only, never inline, never eval; the API and file-server
 * origins (which differ from this port) for calls and for audio — nothing else.
 */
export function consolePolicy(opts: Pick<ConsoleSiteOptions, 'apiUrl' | 'storageUrl'>): string {
  const api = new URL(opts.apiUrl).origin;
  const files = new URL(opts.storageUrl).origin;
  const extra = (...origins: string[]) => [...new Set(origins)].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src 'self' ${extra(files)}`,
    `connect-src 'self' ${extra(api)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `GET /console`: the partner console (decisions §31), a static page built by packages/console, with
 * its assets under /console/assets/ (hashed names: cached for a year as immutable; the page itself
 * is revalidated every time, so a new build is picked up at once). It talks to the public API
 * only, with the token of whoever signs in. Without a build it answers 503 saying how to make one.
 */
export function consoleSite(opts: ConsoleSiteOptions): Router {
  const csp = consolePolicy(opts);
  const assets = path.join(opts.dir, 'assets');
  const router = express.Router({ strict: true, caseSensitive: true });
  router.use('/console', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.get('/console/', (_req, res) => res.redirect(301, '/console'));
  router.get('/console', (_req, res, next) => {
    const index = path.join(opts.dir, 'index.html');
    if (!fs.existsSync(index)) {
      res.status(503).json({
        message: 'the console is not built',
        errors: [
          {
            field: null,
            message: `no ${index}: run \`pnpm build:console\` (pnpm start does it first)`,
            reference_sid: null,
          },
        ],
      });
      return;
    }
    res.sendFile(
      'index.html',
      {
        root: opts.dir,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
        lastModified: true,
      },
      (err) => {
        if (err) next(err);
      },
    );
  });
  router.get('/console/assets/:name', (req, res, next) => {
    const name = req.params.name;
    const type = HASHED.test(name) ? TYPES[name.slice(name.lastIndexOf('.') + 1)] : undefined;
    if (!type) return next();
    // `root`: the name is checked above, and sendFile keeps it inside the directory.
    res.sendFile(name, { root: assets, immutable: true, maxAge: '365d', headers: { 'Content-Type': type } }, (err) => {
      if (err && 'code' in err && err.code === 'ENOENT') next();
      else if (err) next(err);
    });
  });
  return router;
}
