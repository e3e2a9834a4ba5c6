import { Type } from '@sinclair/typebox';
import { CommonConfig } from '@patchbay/platform';
import { GatewayConfig } from '@patchbay/gateway';
import { IdentityConfig } from '@patchbay/identity';
import { EndpointConfig } from '@patchbay/endpoint';
import { StorageConfig } from '@patchbay/storage';
import { TranscoderConfig } from '@patchbay/transcoder';
import { FileServerConfig } from '@patchbay/file-server';
import { PushConfig } from '@patchbay/push';
import { ThresholdWorkerConfig } from '@patchbay/threshold-worker';
import { RecordsConfig } from '@patchbay/records';

/** Environment of the all-in-one process (documented in the README). */
export const AllInOneConfig = Type.Object({
  ...CommonConfig,
  ...GatewayConfig,
  ...IdentityConfig,
  ...EndpointConfig,
  ...TranscoderConfig,
  ...PushConfig,
  ...RecordsConfig,
  ...StorageConfig,
  ...ThresholdWorkerConfig,
  ...FileServerConfig,
  /**
   * Distributed launcher only: replicas of each service (`<SERVICE>_REPLICAS`). The gateway's and the
   * file server's listen on consecutive ports from PORT and STORAGE_PORT. Services that own an
   * embedded store (identity, records, storage, endpoint, push) take more than 1 only with MONGODB_URL.
   */
  GATEWAY_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  FILE_SERVER_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  TRANSCODER_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  THRESHOLD_WORKER_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  IDENTITY_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  RECORDS_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  STORAGE_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  ENDPOINT_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  PUSH_REPLICAS: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
  /** Distributed launcher only: process i serves /health and /metrics on OPS_PORT_BASE + i. */
  OPS_PORT_BASE: Type.Optional(Type.Integer({ minimum: 1, maximum: 65000 })),
  PATCHBAY_BOOTSTRAP_LOGIN: Type.Optional(Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' })),
  PATCHBAY_BOOTSTRAP_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  PATCHBAY_BOOTSTRAP_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
});
