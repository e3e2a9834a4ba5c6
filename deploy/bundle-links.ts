/**
 * Makes a bundle runnable from this checkout with plain node: `node_modules/<pkg>` beside main.js, a
 * relative symlink to the very package directory each workspace package resolves under pnpm.
 *
 * A bundle leaves third-party packages external (deploy/bundle.ts), and pnpm gives each workspace
 * package its own node_modules, which a file outside that package never sees. So the bundle gets
 * the third-party packages of every workspace package compiled into it: their declared dependencies
 * (also those only resolved at run time, `require.resolve('swagger-ui-dist/…')`, ffmpeg's optional
 * binary packages) and any other package they import, found as Node would from the importing file.
 * Two workspace packages resolving one name to two different directories (two versions) is an
 * error: one bundle can hold only one.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One file compiled into the bundle and the third-party packages (names) it imports. */
export interface BundledInput {
  file: string;
  packages: string[];
}

/** Links into `<outDir>/node_modules` every package the inputs' workspace packages use. */
export function linkPackages(outDir: string, inputs: BundledInput[]): void {
  const found = new Map<string, { dir: string; by: string }>();
  const add = (name: string, dir: string, by: string) => {
    const real = fs.realpathSync(dir);
    const known = found.get(name);
    if (known && known.dir !== real)
      throw new Error(
        `${name} resolves to ${known.dir} for ${known.by} and to ${real} for ${by}: one bundle holds one`,
      );
    found.set(name, { dir: real, by });
  };
  const packageDirs = new Set<string>();
  for (const input of inputs) {
    const pkgDir = packageDirOf(path.dirname(input.file));
    if (pkgDir) packageDirs.add(pkgDir);
    for (const name of input.packages) {
      const dir = lookUp(path.dirname(input.file), name);
      if (!dir) throw new Error(`${input.file} imports ${name}, which is not installed`);
      add(name, dir, input.file);
    }
  }
  for (const pkgDir of packageDirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const dir = path.join(pkgDir, 'node_modules', name);
      // Workspace packages are compiled in; an optional dependency may be missing on this platform.
      if (!name.startsWith('@patchbay/') && fs.existsSync(dir)) add(name, dir, pkgDir);
    }
  }
  for (const [name, { dir }] of found) {
    const link = path.join(outDir, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.relative(path.dirname(link), dir), link, 'dir');
  }
}

/** The nearest directory holding a package.json, from `dir` up. */
function packageDirOf(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'package.json'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** Where Node finds package `name` from a file in `dir`: the first `node_modules/<name>` up the tree. */
function lookUp(dir: string, name: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}
