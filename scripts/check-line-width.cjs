#!/usr/bin/env node
// Fails when a line of code is wider than Prettier's printWidth (.prettierrc.json). Prettier wraps
// what it can, but never breaks a string, a template literal or a regular expression, so a long one
// passes `prettier --check`; this catches it. Generated code is exempt. Run by `pnpm lint`.
// Usage: node scripts/check-line-width.cjs [root]
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const width = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.prettierrc.json'), 'utf8')).printWidth;
const EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.cjs', '.mjs']);
/** Directories never looked in, by name anywhere in the tree. */
const SKIPPED_NAMES = new Set(['node_modules', '.git', '.cache', 'dist', 'data', 'coverage', '.bench-tmp']);
/** Generated code, relative to the root (as in .prettierignore). */
const GENERATED = ['packages/client/src/generated/'];

function* codeFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (entry.isDirectory()) {
      if (!SKIPPED_NAMES.has(entry.name) && !GENERATED.some((g) => `${rel}/`.startsWith(g))) yield* codeFiles(full);
    } else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name))) yield rel;
  }
}

const over = [];
for (const rel of codeFiles(root)) {
  const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.length > width) over.push(`${rel}:${i + 1}: ${line.length} columns`);
  });
}
if (over.length > 0) {
  console.error(`${over.length} line(s) over ${width} columns (wrap the string or regex by hand):`);
  for (const o of over) console.error(`  ${o}`);
  process.exit(1);
}
console.log(`check-line-width: no line over ${width} columns`);
