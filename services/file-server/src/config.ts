import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, HttpServerConfig, PublicFilesConfig, httpTimeouts } from '@patchbay/platform';
import type { FileServerSettings } from './start';

export const FileServerConfig = {
  /** Port of the public file server. */
  STORAGE_PORT: PublicFilesConfig.STORAGE_PORT,
  /** How long a resolved `/f/<id>` is kept (file events drop it sooner). */
  FILE_CACHE_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 5000 }),
  /**
   * Behind an nginx edge that can read the directory blob store (`<DATA_DIR>/blobs`): the prefix of
   * the internal location it serves that directory under (e.g. `/_patchbay_blobs/`). The file server
   * then still decides every answer and header, but leaves the bytes to nginx (X-Accel-Redirect,
   * sendfile). Unset: the file server sends the bytes. Not with the GridFS store (MONGODB_URL).
   */
  FILE_SERVER_ACCEL_REDIRECT: Type.Optional(Type.String({ pattern: '^/((?!\\.\\.?/)[A-Za-z0-9._-]+/)+$' })),
  /** How long a download waits for a transcoded copy. */
  TRANSCODE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 120000 }),
  /** Slow clients: head, keep-alive and body timeouts (docs/security.md "Timeouts and limits"). */
  ...HttpServerConfig,
};

export const fileServerSchema = Type.Object({ ...CommonConfig, ...FileServerConfig });
export type FileServerConfigValues = Static<typeof fileServerSchema>;

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function fileServerSettings(c: FileServerConfigValues): FileServerSettings {
  return {
    port: c.STORAGE_PORT,
    cacheTtlMs: c.FILE_CACHE_MS,
    busTimeoutMs: c.BUS_TIMEOUT_MS,
    transcodeTimeoutMs: c.TRANSCODE_TIMEOUT_MS,
    accelRedirect: c.FILE_SERVER_ACCEL_REDIRECT,
    http: httpTimeouts(c),
    host: c.HOST,
  };
}
