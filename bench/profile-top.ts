/**
 * Where a process's CPU went, from a V8 CPU profile (`node --cpu-prof`): the share of busy time by
 * package (node internals, each npm package, Patchbay's own code, GC) and the functions with the
 * most self time. The benches' README rows name the profile behind a target they miss.
 *
 *   pnpm exec tsx bench/profile-top.ts FILE.cpuprofile [top=25] [--window A-B]
 *
 * It prints the busy share of each second first; `--window 12-22` counts only seconds 12 to 22 of
 * the profile (the load, not the start-up). `--inclusive TEXT` adds the functions whose location
 * contains TEXT by inclusive time (their callees counted too): what a part of the code costs in all.
 *
 * To profile a bench: NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" pnpm exec tsx bench/…;
 * every process (the bench, each service, a fake provider) writes its own profile there on exit.
 */
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The bucket a frame's time is counted under. */
function owner(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:'))
    return `node:${url.slice(5).split('/')[url.slice(5).startsWith('internal') ? 1 : 0] ?? ''}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(packages|services)\/([^/]+)\//.exec(url);
  return own ? `patchbay ${own[1]}/${own[2]}` : url.replace(/^file:\/\//, '');
}

function main(): void {
  const args = process.argv.slice(2);
  const w = args.indexOf('--window');
  const [from, to] =
    w >= 0
      ? args
          .splice(w, 2)[1]
          .split('-')
          .map((x) => Number(x) * 1e6)
      : [0, Infinity];
  const inc = args.indexOf('--inclusive');
  const inclusiveOf = inc >= 0 ? args.splice(inc, 2)[1] : undefined;
  const [file, topArg] = args;
  if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [top]');
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const perSecond: Array<{ busy: number; all: number }> = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    const s = (perSecond[Math.floor(at / 1e6)] ??= { busy: 0, all: 0 });
    s.all += dt;
    if (byId.get(id)!.callFrame.functionName !== '(idle)') s.busy += dt;
    if (at >= from && at < to) self.set(id, (self.get(id) ?? 0) + dt);
  });
  console.log(
    `busy % per second: ${[...perSecond].map((s) => (s ? Math.round((100 * s.busy) / s.all) : 0)).join(' ')}`,
  );
  let total = 0;
  let idle = 0;
  const buckets = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const bucket = owner(frame);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const where = frame.url
      ? frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(packages|services)\//, '$1/')
      : '';
    const name = `${frame.functionName || '(anonymous)'} ${where ? `${where}:${frame.lineNumber + 1}` : ''}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
  }
  const busy = total - idle;
  const inclusive = new Map<string, number>();
  if (inclusiveOf) {
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const [id, us] of self) {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        if (!frame.url.includes(inclusiveOf)) continue;
        const name =
          `${frame.functionName || '(anonymous)'} ` +
          `${frame.url.replace(/^.*\/(packages|services)\//, '$1/')}:${frame.lineNumber + 1}`;
        if (seen.has(name)) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    }
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  console.log(
    `${file}: ${(total / 1e6).toFixed(2)} s profiled, ` +
      `${(busy / 1e6).toFixed(2)} s busy ` +
      `(${((100 * busy) / total).toFixed(0)}%)\n`,
  );
  console.log('busy time by owner:');
  for (const [name, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.OWNERS ?? 15)))
    console.log(`  ${pct(us)}  ${name}`);
  if (inclusiveOf) {
    console.log(`\nfunctions of ${inclusiveOf} by inclusive time:`);
    for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`  ${pct(us)}  ${name}`);
  }
  console.log(`\ntop ${top} functions by self time:`);
  for (const [name, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${name}`);
}

process.stdout.on('error', () => process.exit(0));
main();
