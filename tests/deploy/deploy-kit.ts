import fs from 'node:fs';
import path from 'node:path';
import { Type, type TProperties } from '@sinclair/typebox';
import { parseAllDocuments, parse } from 'yaml';
import { CommonConfig } from '../../packages/platform/src/config/common';
import { ConfigError, loadConfig } from '../../packages/platform/src/config/load-config';
import { GatewayConfig } from '../../services/gateway/src/config';
import { StorageConfig } from '../../services/storage/src/config';
import { EndpointConfig } from '../../services/endpoint/src/config';
import { PushConfig } from '../../services/push/src/config';
import { RecordsConfig } from '../../services/records/src/config';
import { FileServerConfig } from '../../services/file-server/src/config';
import { TranscoderConfig } from '../../services/transcoder/src/config';
import { ThresholdWorkerConfig } from '../../services/threshold-worker/src/config';
import type { ApiJson } from '../support/api-json';

export const ROOT = path.resolve(__dirname, '../..');

/** Each image's own environment keys (with CommonConfig), as its main.ts hands them to bootService. */
const SERVICE_CONFIG: Record<string, TProperties> = {
  gateway: GatewayConfig,
  identity: {},
  records: RecordsConfig,
  storage: StorageConfig,
  endpoint: EndpointConfig,
  push: PushConfig,
  'file-server': FileServerConfig,
  transcoder: TranscoderConfig,
  'threshold-worker': ThresholdWorkerConfig,
};

/** Every bus-side service that deployments run (the Dockerfile's service targets). */
export const DEPLOYED = Object.keys(SERVICE_CONFIG).sort();

/**
 * Problems with the environment a deployment gives `service`: keys the service does not read (a
 * typo is silently ignored at run time, so it is caught here), and values its config schema
 * refuses (exactly as start-up would). `${VAR:-default}` is read as its default.
 */
export function envProblems(service: string, env: Record<string, string>): string[] {
  const own = SERVICE_CONFIG[service];
  if (!own) return [`no config known for ${service}`];
  const props: TProperties = { ...CommonConfig, ...own };
  const resolved = Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1')]),
  );
  const problems = Object.keys(resolved)
    .filter((k) => !(k in props))
    .map((k) => `${service}: ${k} is not a setting of this service`);
  try {
    loadConfig(Type.Object(props), resolved);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems.map((p) => `${service}: ${p}`));
  }
  return problems;
}

/** A YAML file of the repository, parsed with merge keys (`<<: *anchor`) resolved. */
export function readYaml<T = unknown>(rel: string): T {
  return parse(fs.readFileSync(path.join(ROOT, rel), 'utf8'), { merge: true }) as T;
}

/** Every document of a multi-document YAML file (empty documents dropped). */
export function readYamlDocs(file: string): Array<ApiJson> {
  return parseAllDocuments(fs.readFileSync(file, 'utf8'), { merge: true })
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
      return d.toJS() as ApiJson;
    })
    .filter((d) => d !== null && d !== undefined);
}
