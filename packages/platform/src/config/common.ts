import { Type } from '@sinclair/typebox';
import { LOG_FORMATS } from '../logging/logger';

/**
 * Environment keys every service understands. A service's own `src/config.ts` composes these with
 * its own keys: `Type.Object({ ...CommonConfig, ...mine })`.
 */
export const CommonConfig = {
  /** NATS server URL(s); unset = in-process bus (all-in-one only). */
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls|ws|wss)://' })),
  /** MongoDB connection string; unset = embedded SQLite store under DATA_DIR. */
  MONGODB_URL: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://' })),
  /**
   * First part of every MongoDB database name: `<prefix>_<service>`, blobs `<prefix>_blobs`. Lets
   * several installations (or test runs) share one MongoDB. At most 38 characters, so the longest
   * name stays within MongoDB's 64-byte limit.
   */
  MONGODB_DB_PREFIX: Type.String({ default: 'patchbay', pattern: '^[A-Za-z0-9_-]{1,38}$' }),
  /**
   * Patchbay's own blobs on S3 or an S3-compatible server: `s3://<bucket>[/<prefix>][?endpoint=<url>][&region=<r>]`
   * (path-style with an endpoint). Unset: GridFS with MONGODB_URL, else `<DATA_DIR>/blobs`.
   */
  BLOB_STORE_URL: Type.Optional(Type.String({ pattern: '^s3://' })),
  /** The S3 credentials of BLOB_STORE_URL (never logged). Unset: unsigned requests. */
  AWS_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  AWS_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Let external containers (a partner's own bucket) reach loopback, private, link-local and other
   * non-public addresses: tests, and deployments whose partners' storage is on a private network.
   * Off, such an endpoint is refused on create and update and never connected to (docs/security.md).
   */
  EXTERNAL_STORAGE_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  /**
   * The address the API, the file server and the operations port listen on: 127.0.0.1 (this machine
   * only, the default for `pnpm start` and `pnpm start:distributed`), 0.0.0.0 (every interface: the
   * images, compose and Kubernetes set it), `::`, or one interface's address.
   */
  HOST: Type.String({ default: '127.0.0.1', pattern: '^(\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*)$' }),
  /**
   * MiB of memory for recently read blocks of files in the directory blob store: the file server's
   * small ranges of a file in demand are then a copy, not a read (0: none). Only the file server's
   * ranges fill it, so other processes hold nothing.
   */
  BLOB_CACHE_MB: Type.Integer({ minimum: 0, maximum: 65536, default: 128 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** `auto`: one readable line per event on a terminal, JSON otherwise; `json` or `pretty` to choose. */
  LOG_FORMAT: Type.Union(
    LOG_FORMATS.map((f) => Type.Literal(f)),
    { default: 'auto' },
  ),
  /**
   * Port of the /health + /metrics server (0 = off; `auto` = a free port the OS picks, logged at
   * start and reported to the distributed launcher).
   */
  OPS_PORT: Type.Union([Type.Integer({ minimum: 0, maximum: 65535 }), Type.Literal('auto')], { default: 0 }),
  /** Milliseconds a bus request waits for its answer. */
  BUS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 10000 }),
  /**
   * The largest single bus message, in bytes. Over NATS, a limit below the server's own
   * max_payload (which is always read from the server and applies anyway); in-process (all-in-one),
   * the max_payload the in-process bus enforces like a nats-server would: the test suites set
   * NATS's default, 1048576, so a path that only works without a limit fails there too. Larger
   * messages travel in chunks or by reference either way. 0: no limit of our own.
   */
  BUS_MAX_PAYLOAD: Type.Integer({ minimum: 0, default: 0 }),
  /**
   * The largest message the bus carries at all, in chunks (bytes; default 256 MiB, above the largest
   * page of 1,000 of the largest items the API allows, about 120 MB): a larger one is
   * refused at once with a 500 naming the size, on the side that would send it.
   */
  BUS_MAX_MESSAGE_BYTES: Type.Integer({ minimum: 1024 * 1024, default: 256 * 1024 * 1024 }),
  /**
   * Bytes of requests and replies in chunks (those over max_payload) one process holds at once, in
   * each direction: offered to their receivers, and being reassembled (default 128 MiB). Past it a
   * new one is refused at once with a 503 and Retry-After instead of piling up in memory; one is
   * always let through when none is held, so a message up to BUS_MAX_MESSAGE_BYTES still travels.
   */
  BUS_CHUNKED_BYTES: Type.Integer({ minimum: 1024 * 1024, default: 128 * 1024 * 1024 }),
  /**
   * JetStream limits of the events stream (PATCHBAY_EVENTS), applied by every service that sets
   * them: seconds an event is kept and bytes the stream may hold (0 = no limit). Unset = leave the
   * stream as it is. Events only need to outlive a consumer's downtime; jobs leave their stream
   * once acknowledged.
   */
  NATS_EVENTS_MAX_AGE: Type.Optional(Type.Integer({ minimum: 0 })),
  NATS_EVENTS_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Replicas of both streams on a NATS cluster (1, 3 or 5). Unset = leave as created (1). */
  NATS_STREAM_REPLICAS: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  /*
   * OpenTelemetry traces (decisions §42): the standard variables Patchbay honours. The SDK starts
   * before this schema is read (runtime/register.ts, tracing/trace-settings.ts), so they are read
   * there; they are declared here so start-up checks them like every other key and a deployment
   * that sets them is known to be understood. All unset: tracing off, no SDK loaded.
   */
  /** The OTLP/HTTP collector's root (`/v1/traces` is added); setting it turns tracing on. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** The full traces URL, used as it is; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** `http/protobuf` (default) or `http/json`. */
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Optional(Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')])),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: Type.Optional(
    Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')]),
  ),
  /** Extra request headers for the collector (`key=value,…`: an API key, say); never logged. */
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(Type.String()),
  /** `otlp` (the default once an endpoint is set), `console`, or `none` (off whatever else is set). */
  OTEL_TRACES_EXPORTER: Type.Optional(Type.Union(['otlp', 'console', 'none'].map((v) => Type.Literal(v)))),
  /** The `service.name` of this process's spans; default `patchbay-<service>` (`patchbay`: all-in-one). */
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  /** Which traces are kept: `parentbased_always_on` (default), `parentbased_traceidratio` with a ratio… */
  OTEL_TRACES_SAMPLER: Type.Optional(
    Type.Union(
      [
        'always_on',
        'always_off',
        'traceidratio',
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
      ].map((v) => Type.Literal(v)),
    ),
  ),
  /** The share of new traces kept by the ratio samplers (0–1). */
  OTEL_TRACES_SAMPLER_ARG: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /** `true`: tracing off whatever else is set. */
  OTEL_SDK_DISABLED: Type.Boolean({ default: false }),
};

/**
 * The public file server, as every part that names it reads it (storage in `publish_uri`, the
 * gateway in the OpenAPI document, the file server for its port, the launchers' banner): one
 * meaning in both run modes. STORAGE_URL is the public root; unset, it is
 * http://127.0.0.1:<STORAGE_PORT> (the file server's port, default 8081).
 */
export const PublicFilesConfig = {
  /** Public root of the file server (`publish_uri`s start with it); default http://127.0.0.1:<STORAGE_PORT>. */
  STORAGE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Port of the public file server. */
  STORAGE_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8081 }),
};

/** STORAGE_URL, or its default from STORAGE_PORT: the one reading of PublicFilesConfig. */
export function publicFilesUrl(c: { STORAGE_URL?: string; STORAGE_PORT: number }): string {
  return c.STORAGE_URL ?? `http://127.0.0.1:${c.STORAGE_PORT}`;
}
