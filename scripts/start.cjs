// @ts-check
/**
 * `pnpm start`: runs the all-in-one process from a JavaScript bundle of its sources rather than
 * through tsx, which compiles every TypeScript file at each start (seconds on a busy machine).
 *
 * The bundle (deploy/bundle.ts, `--link`: its packages linked beside it) is cached under
 * `.cache/start/<name>-<hash>/`, keyed by a hash of everything compiled into it: the workspace
 * packages' sources and manifests, the lockfile, the bundler and this checkout's path (its package
 * links are relative). A start hashes the sources (tens of milliseconds), builds when no bundle has
 * that hash (a few seconds), and then runs it in this very process, so signals reach the server
 * with no process in between. A bundle is written beside and renamed into place when complete, and
 * a failed build stops the start: an older bundle is never run in place of the sources.
 *
 * Plain JavaScript on purpose: it runs before anything is compiled. `node scripts/start.cjs [name]`
 * (default all-in-one); exported functions are tested in tests/deploy/start-bundle.test.ts.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** Bundles kept besides the current one (a running process may still start a worker from its own). */
const KEEP_OLD = 2;

/**
 * The files compiled into a bundle, relative to `root`, sorted: every workspace package's manifest
 * and src/ tree, the lockfile, the root manifest and the bundler.
 * @param {string} root
 * @returns {string[]}
 */
function sourceFiles(root) {
  const files = ['package.json', 'pnpm-lock.yaml', 'deploy/bundle.ts', 'deploy/bundle-links.ts'];
  for (const group of ['packages', 'services']) {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const pkg of fs.readdirSync(groupDir)) {
      const pkgDir = path.join(groupDir, pkg);
      if (!fs.existsSync(path.join(pkgDir, 'package.json'))) continue;
      files.push(path.join(group, pkg, 'package.json'));
      const src = path.join(pkgDir, 'src');
      if (!fs.existsSync(src)) continue;
      for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) files.push(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
  }
  return files.filter((f) => fs.existsSync(path.join(root, f))).sort();
}

/**
 * The hash a bundle of `root` is cached under: each source's path and content, and `root` itself.
 * @param {string} root
 * @returns {string}
 */
function sourceHash(root) {
  const hash = crypto.createHash('sha256').update(root).update('\0');
  for (const file of sourceFiles(root))
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The bundle's main.js for the sources as they are now, built first if missing. `build(outDir)` writes
 * a bundle into `outDir` (default: deploy/bundle.ts through tsx) and throws when it cannot.
 * @param {string} name
 * @param {{ root?: string; build?: (outDir: string) => void }} [opts]
 * @returns {{ file: string; built: boolean }}
 */
function ensureBundle(name, opts = {}) {
  const root = opts.root ?? ROOT;
  const build = opts.build ?? ((outDir) => runBundler(root, name, outDir));
  // Three levels below the checkout, as services/<name>/src is: code that finds the checkout from
  // its own directory (the gateway's console build) finds it from the bundle too.
  const cache = path.join(root, '.cache', 'start');
  const dir = path.join(cache, `${name}-${sourceHash(root)}`);
  const file = path.join(dir, 'main.js');
  if (fs.existsSync(file)) return { file, built: false };
  const staging = `${dir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    build(staging);
    if (!fs.existsSync(path.join(staging, 'main.js'))) throw new Error(`the bundler wrote no ${name} main.js`);
    fs.renameSync(staging, dir);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another start built the same sources meanwhile: theirs is as good.
    if (!fs.existsSync(file)) throw err;
  }
  pruneOld(cache, name, dir);
  return { file, built: true };
}

/**
 * deploy/bundle.ts through tsx, in a child process (it is TypeScript).
 * @param {string} root
 * @param {string} name
 * @param {string} outDir
 */
function runBundler(root, name, outDir) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'deploy', 'bundle.ts'), '--out-dir', outDir, '--link', name],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`bundling ${name} failed (deploy/bundle.ts exited with ${result.status})`);
}

/**
 * Removes `name`'s bundles but `current` and the KEEP_OLD newest others (and stagings left by a crash).
 * @param {string} cache
 * @param {string} name
 * @param {string} current
 */
function pruneOld(cache, name, current) {
  const mine = fs
    .readdirSync(cache)
    .filter((d) => d.startsWith(`${name}-`) && path.join(cache, d) !== current)
    .map((d) => ({ dir: path.join(cache, d), mtime: fs.statSync(path.join(cache, d)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  const staged = mine.filter((d) => /\.tmp-\d+$/.test(d.dir) && !isRunning(Number(d.dir.split('-').pop())));
  const old = mine.filter((d) => !/\.tmp-\d+$/.test(d.dir)).slice(KEEP_OLD);
  for (const { dir } of [...staged, ...old]) fs.rmSync(dir, { recursive: true, force: true });
}

/** @param {number} pid */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

module.exports = { ensureBundle, sourceFiles, sourceHash };

/**
 * Why this Node.js cannot run Patchbay, or null: the check of packages/platform's runtime/node-version.ts,
 * repeated here in plain JavaScript because it must run before anything is built or loaded.
 * @param {string} version
 * @returns {string | null}
 */
function nodeVersionProblem(version) {
  const major = Number(version.split('.')[0]);
  if (major >= 24) return null;
  return (
    `Patchbay needs Node.js 24 or later; this is ${version}. ` +
    'Get Node 24 from the npm registry with `. scripts/use-node24.sh` in the checkout, then run the command again.'
  );
}

module.exports.nodeVersionProblem = nodeVersionProblem;

if (require.main === module) {
  const tooOld = nodeVersionProblem(process.versions.node);
  if (tooOld) {
    process.stderr.write(`${tooOld}\n`);
    process.exit(1);
  }
  const name = process.argv[2] ?? 'all-in-one';
  let bundle;
  try {
    bundle = ensureBundle(name);
  } catch (err) {
    process.stderr.write(`patchbay: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  process.setSourceMapsEnabled(true);
  // V8's code cache on disk (node:module): the bundle and the packages it loads are compiled once, not
  // at every start. Node checks each entry against its source; a stale one is recompiled.
  require('node:module').enableCompileCache?.(path.join(ROOT, '.cache', 'node-compile'));
  require(bundle.file);
}
