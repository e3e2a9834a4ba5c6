import { openApiDocument } from '../../src/openapi/document';
import { ROUTES } from '../../src/routes/route-table';

/** The URLs the tests build the document with. */
export const TEST_URLS = { baseUrl: 'http://api.test/core/v2', storageUrl: 'http://files.test', version: '0.0.0-test' };

/** An OpenAPI document as the tests read it. */
export interface Doc {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation & { servers?: Array<{ url: string }> }>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; scheme: string }>;
  };
}
export interface Operation {
  operationId: string;
  summary: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
  security: Array<Record<string, string[]>>;
}

/** The document of the route table, as the gateway serves it. */
export function testDocument(): Doc {
  return JSON.parse(JSON.stringify(openApiDocument(ROUTES, TEST_URLS))) as Doc;
}
