#!/usr/bin/env node
import { PatchbayApiError, PatchbayConnectionError } from '@patchbay/client';
import { buildProgram } from './program';

/**
 * `pnpm patchbay …` or `npx patchbay …` — the command line (program.ts). Errors print one plain
 * message on stderr and exit 1: an API error its status, message and one line per field; a request
 * with no answer the URL and why (`cannot reach http://127.0.0.1:8080/core/v2: connection refused`).
 */
function describe(err: unknown): string {
  if (err instanceof PatchbayConnectionError)
    return `${err.message}\n  is Patchbay running there? Start it with \`pnpm start\`, or give --url / PATCHBAY_URL`;
  if (err instanceof PatchbayApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`${describe(err)}\n`);
    process.exit(1);
  });
