import v8 from 'node:v8';

/**
 * V8's garbage collector as Patchbay's processes want it, set at the very start of every process
 * (tracing/register.ts, the first import of every entry point, calls this before anything else
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
 */
export function applyHeapSettings(env: NodeJS.ProcessEnv = process.env): void {
  if (env.PATCHBAY_GC_EXTERNAL_IN_HEAP_LIMIT === '0') return;
  v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
}
