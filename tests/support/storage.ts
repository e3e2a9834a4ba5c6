import { API, http, type TestPartner } from '../harness/api';
import { until } from './poll';
import type { ApiJson } from './api-json';

/** Creates a container for the partner and returns it (fails the test on anything but 200). */
export async function createContainer(p: TestPartner, body: Record<string, unknown> = {}): Promise<ApiJson> {
  const res = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send(body);
  if (res.status !== 200) throw new Error(`container create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Raw upload (application/octet-stream, File fields in the query). Returns the supertest response. */
export function uploadRaw(p: TestPartner, fields: Record<string, string | number | boolean>, data: Buffer | string) {
  const qs = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return http()
    .post(`${API}/storage/files?${qs}`)
    .set(...p.auth)
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.from(data));
}

/** Multipart upload: `file_object` JSON then `data`. */
export function uploadMultipart(
  p: TestPartner,
  fileObject: Record<string, unknown>,
  data: Buffer | string,
  filename = 'upload.bin',
) {
  return http()
    .post(`${API}/storage/files`)
    .set(...p.auth)
    .field('file_object', JSON.stringify(fileObject))
    .attach('data', Buffer.from(data), filename);
}

export async function listFiles(p: TestPartner, containerSid: string): Promise<Array<ApiJson>> {
  const res = await http()
    .get(`${API}/storage/files`)
    .query({ filter: `container_sid eq "${containerSid}"`, limit: 1000 })
    .set(...p.auth);
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items;
}

/**
 * Waits for a file's upload-time transcoding to finish and returns the File; fails at once if it failed (progress back
 * to null).
 */
export async function transcodedFile(p: TestPartner, fileSid: string, timeoutMs = 60000): Promise<ApiJson> {
  return until('the transcoding job', timeoutMs, async () => {
    const f = (
      await http()
        .get(`${API}/storage/files/${fileSid}`)
        .set(...p.auth)
    ).body;
    if (f.content_transcoding_progress === null) throw new Error(`transcoding of ${fileSid} failed`);
    return f.content_transcoding_progress === 100 ? f : undefined;
  });
}
