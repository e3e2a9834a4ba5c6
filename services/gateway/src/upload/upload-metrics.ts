import { Counter, Histogram, type Registry } from 'prom-client';
import type { BlobStore } from '@patchbay/platform';

/**
 * Upload volume for operators: the gateway's blob writes are its uploads (and bulk ingest files),
 * so the store it streams into is wrapped to count every byte that lands
 * (`gateway_upload_bytes_total`) and the size of each upload (`gateway_upload_size_bytes`).
 * A write that fails (client gone, quota exceeded mid-stream) counts under result="failed".
 */
export function countUploadBytes(blobs: BlobStore, registry: Registry): BlobStore {
  const bytes = new Counter({
    name: 'gateway_upload_bytes_total',
    help: 'Bytes of uploads written to the blob store',
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'gateway_uploads_total',
    help: 'Upload bodies streamed into the blob store, by result',
    labelNames: ['result'],
    registers: [registry],
  });
  const sizes = new Histogram({
    name: 'gateway_upload_size_bytes',
    help: 'Size of each upload',
    registers: [registry],
    buckets: [1024, 16384, 131072, 1048576, 8388608, 67108864, 268435456, 1073741824],
  });
  const counted: BlobStore = {
    get: (key, range) => blobs.get(key, range),
    stat: (key) => blobs.stat(key),
    delete: (key) => blobs.delete(key),
    ...(blobs.sweepIncomplete ? { sweepIncomplete: (ms: number) => blobs.sweepIncomplete!(ms) } : {}),
    ...(blobs.list ? { list: (prefix: string) => blobs.list!(prefix) } : {}),
    ...(blobs.close ? { close: () => blobs.close!() } : {}),
    put: async () => ({ size: 0 }),
  };
  counted.put = async (key, body, opts) => {
    try {
      const written = await blobs.put(key, body, opts);
      bytes.inc(written.size);
      sizes.observe(written.size);
      uploads.inc({ result: 'ok' });
      return written;
    } catch (err) {
      uploads.inc({ result: 'failed' });
      throw err;
    }
  };
  return counted;
}
