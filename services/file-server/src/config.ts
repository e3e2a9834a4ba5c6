import { Type } from '@sinclair/typebox';

export const FileServerConfig = {
  /** Port of the public file server. */
  STORAGE_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8081 }),
  /** How long a resolved `/f/<id>` is kept (file events drop it sooner). */
  FILE_CACHE_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 5000 }),
  /** How long a download waits for a transcoded copy. */
  TRANSCODE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 120000 }),
};
