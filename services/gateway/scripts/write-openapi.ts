/**
 * Writes packages/client/openapi.json: the OpenAPI document the gateway serves, built from the route
 * table and the contracts' schemas with fixed example URLs. The client's types are generated from
 * this committed file, so packages never import a service. Run after changing a route or a schema:
 *
 *   pnpm generate:api                               this, then the client's types
 *   tsx scripts/write-openapi.ts --check [--out f]  exit 1 when the file differs from a fresh build
 */
import fs from 'node:fs';
import path from 'node:path';
import { committedDocumentText } from '../src/openapi/committed-document';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out =
  outAt >= 0 ? path.resolve(args[outAt + 1]) : path.resolve(__dirname, '../../../packages/client/openapi.json');
const text = committedDocumentText();

if (args.includes('--check')) {
  const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (current !== text) {
    process.stderr.write(`${out} is stale: run pnpm generate:api\n`);
    process.exitCode = 1;
  } else process.stdout.write(`${out} is up to date\n`);
} else {
  fs.writeFileSync(out, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)} (${text.length} characters)\n`);
}
