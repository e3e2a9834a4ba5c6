/**
 * Imported first by every entry point (through runtime/register.ts, or directly): on an unsupported
 * Node.js the process stops here with a plain message, before anything else is loaded or any V8
 * flag is applied (an older V8 would first complain about flags it does not know).
 */
import { nodeVersionProblem } from './node-version';

const tooOld = nodeVersionProblem();
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
