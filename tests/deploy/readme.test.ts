/**
 * The README stays a five-minute read that is true (issue 44): at most 250 lines; the two commands
 * (run it, test it) as `.ci/run` runs them; a benchmark table of at most 12 rows, each naming a script
 * that exists under bench/ and giving one figure and one ratio; every relative link pointing at a file
 * of the repository; every environment variable it names read by some service's configuration.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const lines = readme.split('\n');

test('at most 250 lines', () => {
  expect(lines.length).toBeLessThanOrEqual(250);
});

test('the two commands, and the test command is the one CI runs', () => {
  const run = '. scripts/use-node24.sh && npm install -g pnpm@9 && pnpm install && pnpm start';
  const testCommand = '. scripts/use-node24.sh && pnpm install --frozen-lockfile && pnpm test';
  expect(lines).toContain(run);
  expect(lines).toContain(testCommand);
  expect(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toContain(testCommand);
});

test('one benchmark table of at most 12 rows, each a script of bench/ with one figure and one ratio', () => {
  const at = lines.indexOf('## Benchmarks');
  expect(at).toBeGreaterThan(0);
  const rows = lines.slice(at).filter((l) => l.startsWith('| ') && !l.startsWith('| benchmark'));
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThanOrEqual(12);
  for (const row of rows) {
    const cells = row.split(' | ');
    expect({ row, cells: cells.length }).toEqual({ row, cells: 4 });
    const script = /`([a-z0-9-]+\.ts)`/.exec(cells[0])?.[1];
    expect({ row, exists: script !== undefined && fs.existsSync(path.join(ROOT, 'bench', script)) }).toEqual({
      row,
      exists: true,
    });
    expect({ row, ratio: /^[0-9.]+ \|$/.test(cells[3]) }).toEqual({ row, ratio: true });
  }
});

test('every relative link names a file of the repository', () => {
  const targets = [...readme.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
  expect(targets.length).toBeGreaterThan(5);
  for (const t of targets) expect({ t, exists: fs.existsSync(path.join(ROOT, t)) }).toEqual({ t, exists: true });
});

/** Every source file of the services and packages, once (where settings are read). */
function sources(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|cjs)$/.test(e.name)) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  for (const top of ['packages', 'services', 'scripts']) walk(path.join(ROOT, top));
  return out.join('\n');
}

test('every setting the configuration table names is read by the code', () => {
  const at = lines.indexOf('## Configuration');
  const end = lines.findIndex((l, i) => i > at && l.startsWith('## '));
  const names = new Set(
    lines
      .slice(at, end)
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...l.split(' | ')[0].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])),
  );
  expect(names.size).toBeGreaterThan(8);
  const code = sources();
  for (const name of names)
    expect({ name, read: new RegExp(`\\b${name}\\b`).test(code) }).toEqual({ name, read: true });
});
