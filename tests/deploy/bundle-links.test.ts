/**
 * The packages linked beside a bundle run from the checkout (deploy/bundle-links.ts): each workspace
 * package's dependencies and imports as Node resolves them from its own directory (pnpm gives each
 * package its own node_modules), and one name resolving to two directories refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkPackages } from '../../deploy/bundle-links';

/** A pnpm-like tree: packages/<pkg>/node_modules/<dep> → a store directory per version. */
function workspace(deps: Record<string, Record<string, string>>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-links-'));
  for (const [pkg, versions] of Object.entries(deps)) {
    const dir = path.join(root, 'packages', pkg);
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'index.ts'), '');
    const dependencies = Object.fromEntries(Object.entries(versions).map(([d, v]) => [d, `^${v}`]));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `@patchbay/${pkg}`, dependencies }));
    for (const [dep, version] of Object.entries(versions)) {
      const store = path.join(root, 'node_modules', '.pnpm', `${dep}@${version}`, 'node_modules', dep);
      fs.mkdirSync(store, { recursive: true });
      fs.writeFileSync(path.join(store, 'package.json'), JSON.stringify({ name: dep, version }));
      fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
      fs.symlinkSync(store, path.join(dir, 'node_modules', dep), 'dir');
    }
  }
  return root;
}

describe('packages linked beside a bundle', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  test('every dependency of the bundled workspace packages resolves from the bundle, at its real place', () => {
    const root = workspace({ gateway: { express: '5.0.0', 'swagger-ui-dist': '5.1.0' }, platform: { pino: '10.0.0' } });
    roots.push(root);
    const out = path.join(root, '.cache', 'start', 'all-in-one-x');
    fs.mkdirSync(out, { recursive: true });
    linkPackages(out, [
      { file: path.join(root, 'packages', 'gateway', 'src', 'index.ts'), packages: ['express'] },
      { file: path.join(root, 'packages', 'platform', 'src', 'index.ts'), packages: [] },
    ]);
    for (const [dep, version] of [
      ['express', '5.0.0'],
      ['swagger-ui-dist', '5.1.0'], // declared, required only at run time (require.resolve)
      ['pino', '10.0.0'],
    ]) {
      const manifest = require.resolve(`${dep}/package.json`, { paths: [out] });
      expect(fs.realpathSync(manifest)).toBe(
        path.join(
          fs.realpathSync(root),
          'node_modules',
          '.pnpm',
          `${dep}@${version}`,
          'node_modules',
          dep,
          'package.json',
        ),
      );
    }
    // Relative links: the cache moves with the checkout.
    expect(path.isAbsolute(fs.readlinkSync(path.join(out, 'node_modules', 'express')))).toBe(false);
  });

  test('two versions of one package in one bundle are refused, naming both', () => {
    const root = workspace({ gateway: { ajv: '8.17.0' }, platform: { ajv: '8.20.0' } });
    roots.push(root);
    const out = path.join(root, 'out');
    const file = (pkg: string) => path.join(root, 'packages', pkg, 'src', 'index.ts');
    expect(() =>
      linkPackages(out, [
        { file: file('gateway'), packages: ['ajv'] },
        { file: file('platform'), packages: ['ajv'] },
      ]),
    ).toThrow(/ajv resolves to .*ajv@8\.17\.0.* and to .*ajv@8\.20\.0/);
  });
});
