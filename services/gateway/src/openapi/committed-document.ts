import { apiDocument } from './api-document';

/**
 * The document as committed in packages/client/openapi.json (the client's types are generated from
 * it): fixed example URLs, so it changes only when a route or a schema does.
 */
export function committedDocumentText(): string {
  const doc = apiDocument({
    baseUrl: 'http://127.0.0.1:8080/core/v2',
    storageUrl: 'http://127.0.0.1:8081',
    version: '0.1.0',
  });
  return `${JSON.stringify(doc, null, 2)}\n`;
}
