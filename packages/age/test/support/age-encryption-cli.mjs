// The npm age-encryption library (typage, by age's author) as a tiny command line, for the
// cross-check in interop-age-encryption.test.ts. It is ESM-only and jest runs CommonJS here, so
// the test runs this file in a child process with plain node.
//   node age-encryption-cli.mjs encrypt <recipient> <in> <out>
//   node age-encryption-cli.mjs decrypt <identity file> <in> <out>
import fs from 'node:fs';
import { Decrypter, Encrypter } from 'age-encryption';

const [mode, key, input, output] = process.argv.slice(2);
const bytes = fs.readFileSync(input);
if (mode === 'encrypt') {
  const e = new Encrypter();
  e.addRecipient(key);
  fs.writeFileSync(output, await e.encrypt(bytes));
} else if (mode === 'decrypt') {
  const d = new Decrypter();
  for (const line of fs.readFileSync(key, 'utf8').split('\n')) {
    if (line.startsWith('AGE-SECRET-KEY-1')) d.addIdentity(line.trim());
  }
  fs.writeFileSync(output, await d.decrypt(bytes, 'uint8array'));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
