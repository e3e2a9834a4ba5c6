import v8 from 'node:v8';

/**
 * V8's garbage collector as Patchbay's processes want it, set at the very start of every process
 * (runtime/register.ts, the first import of every entry point, calls this before anything else
 * allocates).
 *
 * `--external-memory-accounted-in-global-limit`: memory outside the JavaScript heap (Buffers: every
 * socket read, every cipher output) counts toward the heap's own growing limit instead of starting
 * a full mark-compact after each fixed 64 MiB of it. A process that streams bytes allocates
 * external memory as fast as they arrive, so by default it marked its whole heap every 64 MiB:
 * 36 % of the gateway's CPU during uploads was that collector, twice as much for an encrypted upload
 * (the ciphertext is a second allocation per byte). With it, on 26 Nov (2 cores): raw uploads 426 →
 * 567 MiB/s, gateway CPU per 100 MiB halved, at the price of a higher but flat peak — gateway
 * 208 → 277–280 MiB whether the upload is 256 MiB or 2 GiB (decisions §44). Node does not accept the
 * flag in NODE_OPTIONS, hence v8.setFlagsFromString, before the heap has grown. `PATCHBAY_GC_EXTERNAL_IN_HEAP_LIMIT=0`
 * keeps V8's default.
 *
 * `--heap-growing-percent=300`: after a full collection the heap (Buffers included, by the flag
 * above) may grow to 4× what survived before the next one starts. V8's own factor adapts between
 * about 1.1× and 4×, and for a process whose heap holds little but whose Buffers pass through by
 * the hundred MiB it stays low: the gateway marked its 30 MiB heap every 30–60 MiB of an upload,
 * 2–3 full collections per 100 MiB, its event loop at times half in the collector. With 4× raw
 * uploads went 548 → 968 MiB/s and encrypted ones' medians 371–404 → 531–578, peak resident memory
 * unchanged, since what survives a collection is small (27 Nov, measured beside `=0`: decisions
 * §46). `PATCHBAY_GC_HEAP_GROWING_PERCENT=0`
 * keeps V8's adaptive factor; another whole number sets the growth to (100 + n) %.
 */
export function applyHeapSettings(env: NodeJS.ProcessEnv = process.env): void {
  v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent(env.PATCHBAY_GC_HEAP_GROWING_PERCENT)}`);
  if (env.PATCHBAY_GC_EXTERNAL_IN_HEAP_LIMIT === '0') return;
  v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
}

const DEFAULT_HEAP_GROWING_PERCENT = 300;

/** The growth setting from its variable: unset means Patchbay's default; anything but 0–1000 stops the start. */
function heapGrowingPercent(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_HEAP_GROWING_PERCENT;
  if (!/^\d{1,4}$/.test(value) || Number(value) > 1000)
    throw new Error(`PATCHBAY_GC_HEAP_GROWING_PERCENT: a whole number from 0 to 1000 (got "${value}")`);
  return Number(value);
}
