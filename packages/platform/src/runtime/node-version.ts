/** The Node.js major version Patchbay is built, tested and shipped on (docs/decisions.md, "Node 24 only"). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Why this Node.js cannot run Patchbay, or null when it can. Node 20 reached its end of life on
 * 2026-04-30, and several dependencies need Node 22 or later (firebase-admin 14, better-sqlite3 13):
 * on an older Node a process would fail later and less clearly, so it stops at once, saying how to
 * get Node 24 with nothing but npm.
 */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return null;
  return (
    `Patchbay needs Node.js ${REQUIRED_NODE_MAJOR} or later; this is ${version}. ` +
    'Get Node 24 from the npm registry with `. scripts/use-node24.sh` in the checkout, then run the command again.'
  );
}
