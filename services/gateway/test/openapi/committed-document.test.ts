/**
 * packages/client/openapi.json is the document the client's types are generated from: it must be
 * what the route table and the schemas produce now. Change a route without `pnpm generate:api`, and
 * this fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { committedDocumentText } from '../../src/openapi/committed-document';

const COMMITTED = path.resolve(__dirname, '../../../../packages/client/openapi.json');

test('packages/client/openapi.json is the document the route table produces', () => {
  const committed = fs.readFileSync(COMMITTED, 'utf8');
  expect(committed === committedDocumentText()).toBe(true);
});

test('it is the served document: every route of the table is in it', () => {
  const doc = JSON.parse(fs.readFileSync(COMMITTED, 'utf8')) as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/endpoints/{endpoint_sid}', '/storage/files']));
});
