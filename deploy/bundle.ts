/**
 * Production build of the services: each `services/<name>/src/main.ts` becomes one CommonJS file,
 * `dist/<name>/main.js` (+ source map), with every workspace package (@patchbay/*, TypeScript
 * sources) compiled in and every third-party package left as a plain `require`, resolved at run
 * time from the service's pruned production dependencies (`pnpm deploy --prod`, see the Dockerfile).
 *
 * Why bundle rather than `tsc`: the workspace packages point `main` at their TypeScript sources, so
 * a compiled tree would need every package rewritten to point at JS; one file per service starts
 * faster than tsx (no compile at start-up, no loader child process between the signal and the
 * service) and is what the image runs with plain `node`. Third-party code stays external so native
 * or lazily-required modules (mongodb's optional compressors, firebase-admin's lazy parts) keep
 * working exactly as under tsx.
 *
 * Usage: `pnpm build [name ...]` (default: every service with a src/main.ts except all-in-one, and
 * `bootstrap`, the one-shot that creates the first partner in a deployment). `pnpm start` bundles
 * all-in-one through it too (scripts/start.cjs: `--out-dir <dir> --link all-in-one`).
 */
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { linkPackages, type BundledInput } from './bundle-links';

export const ROOT = path.resolve(__dirname, '..');

/** Services that run as their own process/image: every services/<name>/src/main.ts but the launchers. */
export function serviceNames(): string[] {
  return fs
    .readdirSync(path.join(ROOT, 'services'))
    .filter((name) => name !== 'all-in-one' && fs.existsSync(path.join(ROOT, 'services', name, 'src', 'main.ts')))
    .sort();
}

/** Leaves every bare import but the workspace's own packages to be resolved at run time. */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@patchbay/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Entry points that are not services: the deployments' one-shot bootstrap of the first partner. */
const EXTRA_ENTRIES: Record<string, string> = { bootstrap: 'deploy/bootstrap-main.ts' };

/** Every image the Dockerfile builds: each service, plus `bootstrap`. */
export function bundleNames(): string[] {
  return [...serviceNames(), ...Object.keys(EXTRA_ENTRIES)];
}

/**
 * A service's worker-thread entry points: every `*.worker.ts` under `src`, bundled beside main.js as
 * `<base>.js` (the push service's send workers: `send.worker.js`), where the code that starts them looks.
 * The all-in-one process runs every service, so its bundle carries every service's workers.
 */
function workerEntries(name: string): Record<string, string> {
  if (name === 'all-in-one') return Object.assign({}, ...serviceNames().map(workerEntries)) as Record<string, string>;
  const src = path.join(ROOT, 'services', name, 'src');
  if (!fs.existsSync(src)) return {};
  const found = fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.worker.ts'));
  return Object.fromEntries(found.map((f) => [path.basename(f, '.ts'), path.join(src, f)]));
}

export interface BundleOptions {
  /** The directory main.js goes to; default `<outRoot>/<name>`. */
  outDir?: string;
  /**
   * Links (node_modules/<pkg> beside main.js) every third-party package the bundled workspace packages
   * depend on, so the bundle runs from this checkout with plain node (bundle-links.ts); an image
   * gets them from `pnpm deploy` instead.
   */
  link?: boolean;
}

/**
 * Bundles one service into `<outRoot>/<name>/main.js` (and its worker entries beside it); resolves
 * with main.js's path and the packages they require.
 */
export async function bundleService(
  name: string,
  outRoot = path.join(ROOT, 'dist'),
  opts: BundleOptions = {},
): Promise<{ file: string; externals: string[] }> {
  const entry = path.join(ROOT, EXTRA_ENTRIES[name] ?? path.join('services', name, 'src', 'main.ts'));
  if (!fs.existsSync(entry)) throw new Error(`no service ${name} (${entry} is missing)`);
  const file = path.join(opts.outDir ?? path.join(outRoot, name), 'main.js');
  const result = await build({
    entryPoints: { main: entry, ...workerEntries(name) },
    outdir: path.dirname(file),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [thirdPartyExternal],
    banner: { js: `// Patchbay ${name}: bundled by deploy/bundle.ts; run with node --enable-source-maps main.js` },
  });
  const externals = new Set<string>();
  const inputs: BundledInput[] = [];
  for (const [input, { imports }] of Object.entries(result.metafile.inputs)) {
    // Only packages: not node's own modules, esbuild's `<runtime>`, or type-only relative imports.
    const packages = imports
      .filter((imp) => imp.external && /^[@a-z0-9]/i.test(imp.path) && !isBuiltin(imp.path))
      .map((imp) => packageOf(imp.path));
    for (const p of packages) externals.add(p);
    inputs.push({ file: path.resolve(input), packages });
  }
  if (opts.link) linkPackages(path.dirname(file), inputs);
  return { file, externals: [...externals].sort() };
}

/** `@scope/pkg/sub` → `@scope/pkg`; `pkg/sub` → `pkg`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

if (require.main === module) {
  // `--out-dir DIR` (one name) puts main.js there; `--link` links its packages beside it (scripts/start.cjs).
  const args = process.argv.slice(2);
  const at = args.indexOf('--out-dir');
  const outDir = at >= 0 ? path.resolve(args[at + 1]) : undefined;
  const link = args.includes('--link');
  const names = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  (async () => {
    if (outDir && names.length !== 1) throw new Error('--out-dir takes exactly one bundle name');
    for (const name of names.length > 0 ? names : bundleNames()) {
      const { file, externals } = await bundleService(name, undefined, { outDir, link });
      process.stdout.write(`${path.relative(ROOT, file)}  (requires: ${externals.join(', ') || 'nothing'})\n`);
    }
  })().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
