/**
 * Builds the partner console into `dist/`: `index.html` and `assets/app-<hash>.js|css` (esbuild:
 * one bundle, minified, with its source map; Preact and the typed client compiled in). The gateway
 * serves that directory at /console (CONSOLE_DIR), hashed assets as immutable.
 *
 * Usage: `pnpm --filter @patchbay/console build` (always builds), or with `--if-stale`: builds only
 * when dist is missing or older than a source file — what `pnpm start` runs first, so a bare
 * machine serves the console without a separate step (a build takes well under a second).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export const CONSOLE_ROOT = path.resolve(__dirname, '..');
export const DEFAULT_OUT_DIR = path.join(CONSOLE_ROOT, 'dist');
const SRC = path.join(CONSOLE_ROOT, 'src');

export interface ConsoleBuild {
  outDir: string;
  script: string;
  stylesheet: string;
  ms: number;
  skipped: boolean;
}

/** Newest modification time (ms) of the console's sources and of the client it compiles in. */
function newestSource(): number {
  const dirs = [SRC, path.join(CONSOLE_ROOT, 'scripts'), path.resolve(CONSOLE_ROOT, '../client/src')];
  let newest = fs.statSync(path.join(CONSOLE_ROOT, 'package.json')).mtimeMs;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

const page = (script: string, stylesheet: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Patchbay console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${stylesheet}">
<script defer src="/console/assets/${script}"></script>
</head>
<body>
<noscript>The Patchbay console needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;

export async function buildConsole(opts: { outDir?: string; ifStale?: boolean } = {}): Promise<ConsoleBuild> {
  const outDir = opts.outDir ?? DEFAULT_OUT_DIR;
  const started = Date.now();
  const index = path.join(outDir, 'index.html');
  if (opts.ifStale && fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestSource()) {
    const names = fs.readdirSync(path.join(outDir, 'assets'));
    return {
      outDir,
      script: names.find((n) => n.endsWith('.js')) ?? '',
      stylesheet: names.find((n) => n.endsWith('.css')) ?? '',
      ms: Date.now() - started,
      skipped: true,
    };
  }
  // Built beside, then swapped in: a gateway serving the old build never sees a half-written one.
  const staging = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await build({
    entryPoints: { app: path.join(SRC, 'main.tsx') },
    outdir: path.join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  const script = outputs.find((n) => /^app-.*\.js$/.test(n));
  const stylesheet = outputs.find((n) => /^app-.*\.css$/.test(n));
  if (!script || !stylesheet) throw new Error(`console build produced no script or stylesheet: ${outputs.join(', ')}`);
  fs.writeFileSync(path.join(staging, 'index.html'), page(script, stylesheet));
  const old = `${outDir}.old-${process.pid}`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(staging, outDir);
  fs.rmSync(old, { recursive: true, force: true });
  return { outDir, script, stylesheet, ms: Date.now() - started, skipped: false };
}

if (require.main === module) {
  buildConsole({ ifStale: process.argv.includes('--if-stale') }).then(
    (b) => {
      console.log(
        b.skipped
          ? `console: ${path.relative(process.cwd(), b.outDir)} is up to date`
          : `console: built ${path.relative(process.cwd(), b.outDir)} (${b.script}, ${b.stylesheet}) in ${b.ms} ms`,
      );
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
