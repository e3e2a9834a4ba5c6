/**
 * `pnpm start`'s bundle cache (scripts/start.cjs): a bundle is reused while the sources are the same,
 * built again when any source changes, and a failed build never lets an older bundle run.
 * The builder here is a stand-in writing a marker; the real one (deploy/bundle.ts) runs in the API
 * suites, whose all-in-one instances start through the launcher.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Plain JavaScript by design (it runs before anything is compiled); typed by its JSDoc.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const start = require('../../scripts/start.cjs') as {
  ensureBundle(name: string, opts: { root: string; build: (outDir: string) => void }): { file: string; built: boolean };
  sourceHash(root: string): string;
};

function checkout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-start-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('package.json', '{}');
  write('packages/platform/package.json', '{"name":"@patchbay/platform"}');
  write('packages/platform/src/index.ts', 'export const a = 1;\n');
  write('packages/platform/test/index.test.ts', 'test.todo("x");\n');
  write('services/records/package.json', '{"name":"@patchbay/records"}');
  write('services/records/src/main.ts', 'import "@patchbay/platform";\n');
  return root;
}

describe('the bundle pnpm start runs (scripts/start.cjs)', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
  const fresh = () => {
    const root = checkout();
    roots.push(root);
    return root;
  };
  let builds = 0;
  const build = (outDir: string) => {
    builds++;
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'main.js'), `// build ${builds}\n`);
  };

  test('is built once, then reused while the sources are unchanged', () => {
    const root = fresh();
    const first = start.ensureBundle('all-in-one', { root, build });
    expect(first.built).toBe(true);
    expect(fs.readFileSync(first.file, 'utf8')).toBe(`// build ${builds}\n`);
    const again = start.ensureBundle('all-in-one', {
      root,
      build: () => {
        throw new Error('built again');
      },
    });
    expect(again).toEqual({ file: first.file, built: false });
    // Three levels below the checkout, as a service's src/ is (the gateway finds the console build from it).
    expect(path.relative(root, path.dirname(first.file)).split(path.sep)).toHaveLength(3);
  });

  test('is built again when a source or a manifest changes, not when a test does', () => {
    const root = fresh();
    const before = start.sourceHash(root);
    fs.writeFileSync(path.join(root, 'packages/platform/test/index.test.ts'), 'test.todo("y");\n');
    expect(start.sourceHash(root)).toBe(before);
    const first = start.ensureBundle('all-in-one', { root, build });
    fs.writeFileSync(path.join(root, 'packages/platform/src/index.ts'), 'export const a = 2;\n');
    const second = start.ensureBundle('all-in-one', { root, build });
    expect(second.built).toBe(true);
    expect(second.file).not.toBe(first.file);
    fs.writeFileSync(path.join(root, 'services/records/package.json'), '{"name":"@patchbay/records","x":1}');
    expect(start.ensureBundle('all-in-one', { root, build }).built).toBe(true);
  });

  test('a failed build throws and leaves nothing to run, even with an older bundle cached', () => {
    const root = fresh();
    start.ensureBundle('all-in-one', { root, build });
    fs.writeFileSync(path.join(root, 'services/records/src/main.ts'), 'syntax error(\n');
    expect(() =>
      start.ensureBundle('all-in-one', {
        root,
        build: (outDir) => {
          fs.mkdirSync(outDir, { recursive: true }); // half-written
          throw new Error('esbuild: syntax error');
        },
      }),
    ).toThrow('esbuild: syntax error');
    const cached = fs.readdirSync(path.join(root, '.cache', 'start'));
    expect(cached).toHaveLength(1); // the older bundle only: no staging left, nothing for these sources
    expect(cached[0]).not.toContain(start.sourceHash(root));
  });
});
