import { createHash } from 'node:crypto';

/**
 * NATS subject rules, shared by both adapters so they agree on what matches: tokens are split on
 * `.`, `*` matches exactly one token, `>` (last token only) matches one or more.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** True when some subject matches both patterns (how NATS refuses overlapping work-queue consumers). */
export function subjectsOverlap(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (i >= x.length || i >= y.length) return false;
    if (x[i] === '>' || y[i] === '>') return true;
    if (x[i] !== '*' && y[i] !== '*' && x[i] !== y[i]) return false;
  }
  return true;
}

/** True when every subject matching `filter` also matches `pattern` (a consumer filter inside a stream). */
export function subjectContains(pattern: string, filter: string): boolean {
  const p = pattern.split('.');
  const f = filter.split('.');
  for (let i = 0; i < p.length; i++) {
    if (i >= f.length) return false;
    if (p[i] === '>') return true;
    if (f[i] === '>') return false;
    if (p[i] !== '*' && p[i] !== f[i]) return false;
  }
  return p.length === f.length;
}

/**
 * A JetStream consumer name for (group, subject): deterministic, so every process sharing a durable
 * or queue binds the same consumer, and free of `.`, `*`, `>` and spaces, which names may not hold.
 * A short hash keeps names distinct when only punctuation differs (`a.b` vs `a_b`).
 */
export function consumerName(group: string, subject: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  const hash = createHash('sha256').update(`${group}\n${subject}`).digest('hex').slice(0, 10);
  return `${safe(group)}__${safe(subject)}__${hash}`;
}
