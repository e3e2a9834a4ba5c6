import type { RouteDef } from '../http/route-def';
import { SchemaComponents } from './components';
import { fileServerPath } from './file-server';
import { SECURITY_SCHEMES, openApiPath, operation } from './operation';
import { errorResponses } from './responses';

export interface DocumentOptions {
  /** The API root clients call (BASE_URL): the document's server. */
  baseUrl: string;
  /** The public file server's root (STORAGE_URL): the server of `/f/{file_identifier}`. */
  storageUrl: string;
  /** The API's version (the package's). */
  version: string;
}

const DESCRIPTION = [
  'Patchbay is the core API of a telephony platform: file storage ' +
    '(containers, files, transcoding, a public file server with ranges), ' +
    'voice endpoints, push notifications and paginated lists.',
  'Authenticate with `Authorization: Bearer <access_token>` (`POST ' +
    "/oauth/token`) or HTTP Basic with the partner's login. Every error " +
    'has the body `{message, errors: [{field, message, reference_sid}]}`.',
  'Lists answer `{count, has_more, items, limit, offset, pagination: ' +
    '{next?, previous?}, total}`; follow `pagination.next` for the next ' +
    'page.',
  'Every write (POST, PUT, PATCH, DELETE; uploads too) takes an ' +
    '`Idempotency-Key` header: send the same key with each retry of one ' +
    'write, and a repeat gets the first answer again (marked ' +
    '`Idempotent-Replayed: true`) instead of running twice.',
].join('\n\n');

/**
 * The OpenAPI 3.1 document of the whole public API, built from the route table and the contracts'
 * schemas — the same entries the gateway mounts, so the document cannot list a route the API does
 * not have, or miss one. Built once per gateway (its URLs come from the settings).
 */
export function openApiDocument(routes: readonly RouteDef[], opts: DocumentOptions): Record<string, unknown> {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const key = openApiPath(route.path);
    paths[key] ??= {};
    if (paths[key][route.method]) throw new Error(`two routes for ${route.method.toUpperCase()} ${route.path}`);
    paths[key][route.method] = operation(route, components);
  }
  paths['/f/{file_identifier}'] = fileServerPath(opts.storageUrl, components);
  return {
    openapi: '3.1.0',
    info: { title: 'Patchbay core API', version: opts.version, description: DESCRIPTION },
    servers: [{ url: opts.baseUrl, description: 'The core API (BASE_URL)' }],
    paths,
    components: {
      responses: errorResponses(components),
      schemas: components.schemas(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
