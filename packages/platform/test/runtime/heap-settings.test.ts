import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { applyHeapSettings } from '../../src/basics/heap-settings';

/**
 * A process that streams bytes (here: 768 MiB of 64 KiB Buffers, each dropped at once, as an upload
 * passes through the gateway) and counts its full mark-compacts, with Patchbay's heap settings
 * applied and with them switched off. Counts, not times: the default starts a full collection
 * after every 64 MiB of external memory; with external memory counted in the heap's limit, far
 * fewer happen. V8's own heap growth in both: what Patchbay's growth setting does is measured by
 * the upload benches beside it switched off (decisions §46), not counted here.
 */
const child = (optOut: boolean): number => {
  const module = JSON.stringify(path.resolve(__dirname, '../../src/basics/heap-settings.ts'));
  const script = `
    require('tsx/cjs');
    const { applyHeapSettings: apply } = require(${module});
    apply({
      PATCHBAY_GC_EXTERNAL_IN_HEAP_LIMIT: ${optOut ? "'0'" : 'undefined'},
      PATCHBAY_GC_HEAP_GROWING_PERCENT: '0',
    });
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let major = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
    }).observe({ entryTypes: ['gc'] });
    let keep = null;
    (async () => {
      for (let i = 0; i < 12288; i++) {
        keep = Buffer.allocUnsafeSlow(65536);
        keep[0] = i & 0xff;
        if (i % 64 === 0) await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, 50)); // the GC observer reports on a later tick: no event to await
      process.stdout.write(String(major));
    })();
  `;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: __dirname }));
};

test('external memory counts toward the heap limit: a stream of Buffers starts far fewer full collections', () => {
  const defaults = child(true);
  const patchbay = child(false);
  expect(defaults).toBeGreaterThanOrEqual(6); // one per 64 MiB of the 768: V8's default
  expect(patchbay).toBeLessThanOrEqual(defaults / 3);
});

test('a heap growth that is not a whole number from 0 to 1000 stops the start, naming the variable', () => {
  for (const value of ['lots', '-1', '1001', '2.5'])
    expect(() => applyHeapSettings({ PATCHBAY_GC_HEAP_GROWING_PERCENT: value })).toThrow(
      `PATCHBAY_GC_HEAP_GROWING_PERCENT: a whole number from 0 to 1000 (got "${value}")`,
    );
});
