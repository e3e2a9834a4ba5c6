import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { consolePolicy, consoleSite } from '../../src/console/console-site';
import { gatewaySettings } from '../../src/config';

const site = (
  dir: string,
  urls = { apiUrl: 'https://api.example.net/core/v2', storageUrl: 'https://files.example.net:8443' },
) => express().use(consoleSite({ dir, ...urls }));

describe('the console site', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-console-site-'));
  beforeAll(() => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>c</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'app-ABCDEFGH.js'), 'void 0;');
    fs.writeFileSync(path.join(dir, 'assets', 'notes.txt'), 'not an asset');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the policy names the public API and file-server origins from the settings, and nothing else', () => {
    expect(
      consolePolicy({ apiUrl: 'https://api.example.net/core/v2', storageUrl: 'https://files.example.net:8443' }),
    ).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src " +
        "'self' data:; media-src 'self' https://files.example.net:8443; " +
        ("connect-src 'self' https://api.example.net; object-src 'none'; " +
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    );
    // With the defaults (no BASE_URL, STORAGE_URL): the API's port and the file server's.
    const s = gatewaySettings({
      PORT: 9000,
      STORAGE_PORT: 9001,
      JSON_BODY_LIMIT: 1024,
      AUTH_CACHE_MS: 0,
      TRUST_PROXY: 'loopback',
      BUS_TIMEOUT_MS: 1000,
      HOST: '127.0.0.1',
      HTTP_HEADERS_TIMEOUT_MS: 20000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65000,
      HTTP_BODY_TIMEOUT_MS: 30000,
      HTTP_BODY_MIN_BYTES: 16384,
    });
    expect(consolePolicy({ apiUrl: s.baseUrl, storageUrl: s.storageUrl })).toContain(
      "media-src 'self' http://127.0.0.1:9001;",
    );
    expect(s.consoleDir).toBe(path.resolve(__dirname, '../../../../packages/console/dist'));
  });

  test('hashed assets are immutable; other names are not served', async () => {
    const app = site(dir);
    const js = await request(app).get('/console/assets/app-ABCDEFGH.js');
    expect(js.status).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(app).get('/console/assets/notes.txt')).status).toBe(404);
    expect((await request(app).get('/console')).headers['cache-control']).toBe('no-cache');
  });

  test('without a build: 503 in the error shape, saying how to build it', async () => {
    const res = await request(site(path.join(dir, 'missing'))).get('/console');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('the console is not built');
    expect(res.body.errors[0].message).toMatch(/pnpm build:console/);
  });
});
