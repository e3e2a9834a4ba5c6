import { ROUTES } from '../routes/route-table';
import { openApiDocument, type DocumentOptions } from './document';

/**
 * The OpenAPI document of this gateway's route table, for tools that need it without a running
 * gateway (the client's type generator, the tests); the gateway serves the same at /core/v2/openapi.json.
 */
export function apiDocument(opts: DocumentOptions): Record<string, unknown> {
  return openApiDocument(ROUTES, opts);
}
