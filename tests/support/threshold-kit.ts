import request from 'supertest';
import type { PatchbayInstance } from '../harness/patchbay';
import { until as poll } from './poll';
import type { ApiJson } from './api-json';
export { expectedLru } from './lru-reference';

/**
 * Storage calls against a Patchbay a test started itself (the threshold tests need their own, with a
 * short THRESHOLD_SWEEP_INTERVAL), as one partner allowed `maxContainers` containers.
 */
export interface StorageClient {
  partnerSid: string;
  createContainer(body: Record<string, unknown>): Promise<ApiJson>;
  patchContainer(sid: string, body: Record<string, unknown>): Promise<ApiJson>;
  getContainer(sid: string): Promise<ApiJson>;
  /** Raw upload of `data` with File fields in the query; fails the test unless 201. */
  upload(fields: Record<string, string | number | boolean>, data: Buffer | string): Promise<ApiJson>;
  /** The raw upload response, whatever its status. */
  tryUpload(fields: Record<string, string | number | boolean>, data: Buffer | string): Promise<request.Response>;
  /** Every file of the container (one page of up to 1000). */
  files(containerSid: string): Promise<Array<ApiJson>>;
  /** GET /storage/files/{sid}/data: the download that updates date_last_accessed. */
  downloadBySid(fileSid: string): Promise<request.Response>;
  getFile(fileSid: string): Promise<request.Response>;
  patchFile(fileSid: string, body: Record<string, unknown>): Promise<ApiJson>;
  deleteFile(fileSid: string): Promise<void>;
}

let counter = 0;

export async function storageClient(inst: PatchbayInstance, maxContainers = 10): Promise<StorageClient> {
  const api = () => request(inst.origin);
  const login = `thr${Date.now().toString(36)}${(counter++).toString(36)}`;
  const password = 'partner-password-1';
  const created = await api()
    .post('/core/v2/partners')
    .set('Authorization', `Bearer ${inst.token}`)
    .send({ name: `Threshold ${login}`, login, password, attributes: { max_containers: maxContainers } });
  if (created.status !== 200)
    throw new Error(`partner create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const tok = await api()
    .post('/core/v2/oauth/token')
    .type('form')
    .send({ grant_type: 'password', username: login, password });
  if (tok.status !== 200) throw new Error(`token failed: ${tok.status} ${JSON.stringify(tok.body)}`);
  const auth = ['Authorization', `Bearer ${tok.body.access_token}`] as const;
  const expect200 =
    (what: string, status = 200) =>
    (res: request.Response) => {
      if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as ApiJson;
    };
  const tryUpload = (fields: Record<string, string | number | boolean>, data: Buffer | string) => {
    const qs = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return api()
      .post(`/core/v2/storage/files?${qs}`)
      .set(...auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(data));
  };
  return {
    partnerSid: created.body.partner_sid,
    createContainer: (body) =>
      api()
        .post('/core/v2/storage/containers')
        .set(...auth)
        .send(body)
        .then(expect200('container create')),
    patchContainer: (sid, body) =>
      api()
        .patch(`/core/v2/storage/containers/${sid}`)
        .set(...auth)
        .send(body)
        .then(expect200('container patch')),
    getContainer: (sid) =>
      api()
        .get(`/core/v2/storage/containers/${sid}`)
        .set(...auth)
        .then(expect200('container get')),
    upload: (fields, data) => tryUpload(fields, data).then(expect200('upload', 201)),
    tryUpload,
    files: (containerSid) =>
      api()
        .get('/core/v2/storage/files')
        .query({ filter: `container_sid eq "${containerSid}"`, limit: 1000 })
        .set(...auth)
        .then(expect200('file list'))
        .then((b) => b.items as Array<ApiJson>),
    downloadBySid: (fileSid) =>
      api()
        .get(`/core/v2/storage/files/${fileSid}/data`)
        .set(...auth),
    getFile: (fileSid) =>
      api()
        .get(`/core/v2/storage/files/${fileSid}`)
        .set(...auth),
    patchFile: (fileSid, body) =>
      api()
        .patch(`/core/v2/storage/files/${fileSid}`)
        .set(...auth)
        .send(body)
        .then(expect200('file patch')),
    deleteFile: (fileSid) =>
      api()
        .delete(`/core/v2/storage/files/${fileSid}`)
        .set(...auth)
        .then(expect200('file delete', 204))
        .then(() => undefined),
  };
}

/** Polls (see support/poll), 20 s by default. */
export const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> =>
  poll(what, timeoutMs, check);

export const sids = (files: Array<ApiJson>) => files.map((f) => f.file_sid as string).sort();
