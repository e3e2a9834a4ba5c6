/**
 * A record export into an external container (docs/interface-notes.md sections 19 and 23; decisions §29, §55),
 * in both modes: an Amazon-type container on s3rver receives the export's file as its bytes are written —
 * looked at in the bucket with the adapter, not through Patchbay — with no space limit checked there; the file
 * is an ordinary file of the container (listed, downloaded, its bytes the export's records in listing order).
 * API uploads into the same container stay refused (422 naming container_sid).
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { BlobStore } from '@patchbay/platform';
import { API, expectErrorBody, http as api, newPartner, type TestPartner } from '../harness/api';
import type { ApiJson } from '../support/api-json';
import { bytesOf, keysOf, s3Bucket, startS3rver, type S3rverHandle } from '../support/object-stores';
import { exportEnded, fileBytes, ingestRecords, startExport, walkList } from '../support/record-exports';
import { listFiles, uploadRaw } from '../support/storage';

const CALLS = '/calls/call_drs';
const N = 2300;
const call = (i: number) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.UTC(2024, 5, 1) + (i % 700) * 1000 - 60_000).toISOString(),
  date_stop: new Date(Date.UTC(2024, 5, 1) + (i % 700) * 1000).toISOString(),
  direction: i % 2 === 0 ? 'inbound' : 'outbound',
  number_src: `1555${String(i).padStart(7, '0')}`,
});

let s3: S3rverHandle;
let bucket: BlobStore;
let p: TestPartner;
let container: ApiJson;

beforeAll(async () => {
  s3 = await startS3rver(['exports']);
  bucket = s3Bucket(s3, 'exports');
  p = await newPartner({ attributes: { max_containers: 5 } });
  await ingestRecords(
    p,
    CALLS,
    Array.from({ length: N }, (_, i) => call(i)),
  );
  const res = await api()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({
      type: 'aws_s3',
      name: `ext-${randomUUID()}`,
      external_attributes: {
        bucket: 'exports',
        endpoint: s3.endpoint,
        prefix: 'pb',
        credentials: { access_key_id: 'S3RVER', secret_access_key: `secret-${randomUUID()}` },
      },
    });
  expect(res.status).toBe(200);
  container = res.body;
}, 120_000);
afterAll(async () => {
  await bucket?.close?.();
  await s3?.stop();
});

test('an export into an S3 container: done; the object in the bucket is the file, its records the list', async () => {
  const started = await startExport(p, CALLS, {
    container_sid: container.container_sid,
    format: 'ndjson',
    compression: 'gzip',
    name: 'june.ndjson.gz',
  });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'queued', container_sid: container.container_sid });
  const ex = await exportEnded(p, CALLS, started.body.export_sid);
  expect(ex).toMatchObject({ status: 'done', error: null, record_count: N, progress: 100 });

  // An ordinary file of the container: listed, with the export's size.
  const files = await listFiles(p, container.container_sid);
  expect(files.map((f) => f.file_sid)).toEqual([ex.file_sid]);
  expect(files[0]).toMatchObject({ name: 'june.ndjson.gz', file_bytes: ex.bytes, mime_type: 'application/gzip' });

  // The object is in the bucket, under the container's prefix, and holds exactly the bytes Patchbay serves.
  const key = `pb/files/${p.partner_sid}/${ex.file_sid}`;
  expect(await keysOf(bucket)).toContain(key);
  const stored = await bytesOf(bucket, key);
  const served = await fileBytes(p, ex.file_sid);
  expect(stored.length).toBe(ex.bytes);
  expect(stored.equals(served)).toBe(true);
  const lines = gunzipSync(stored).toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map((l) => JSON.parse(l))).toEqual(await walkList(p, CALLS));
}, 120_000);

test('a CSV export without compression into it too; API uploads into it stay refused', async () => {
  const filter = `direction eq "inbound"`;
  const started = await startExport(p, CALLS, {
    container_sid: container.container_sid,
    filter,
    format: 'csv',
    compression: 'none',
  });
  expect(started.status).toBe(202);
  const ex = await exportEnded(p, CALLS, started.body.export_sid);
  expect(ex).toMatchObject({ status: 'done', record_count: N / 2 });
  const rows = (await bytesOf(bucket, `pb/files/${p.partner_sid}/${ex.file_sid}`)).toString('utf8').split('\r\n');
  expect(rows.pop()).toBe('');
  const listed = await walkList(p, CALLS, filter);
  const sidCol = rows[0].split(',').indexOf('dr_sid');
  expect(rows.slice(1).map((r) => r.split(',')[sidCol])).toEqual(listed.map((r) => r.dr_sid));

  const upload = await uploadRaw(p, { container_sid: String(container.container_sid), name: 'x.txt' }, 'hello');
  expect(upload.status).toBe(422);
  expectErrorBody(upload.body);
  expect(upload.body.errors[0].field).toBe('container_sid');
});
