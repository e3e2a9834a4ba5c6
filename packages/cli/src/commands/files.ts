import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { decryptStream } from '@patchbay/age';
import { decryptedDownload, encryptedRangeReader, parseIdentities } from '@patchbay/client/src/encrypted';
import { apiClient, type ClientOptions } from '../client';

/** `<start>-<end>` (inclusive) or `<start>-` (to the end). */
function parseRange(text: string): { start: number; end: number } {
  const m = /^(\d+)-(\d*)$/.exec(text);
  if (!m) throw new Error(`--range must be <start>-<end> or <start>-, not ${text}`);
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (end < start) throw new Error('--range: the end comes before the start');
  return { start, end };
}

const output = (out: string): Writable => (out === '-' ? process.stdout : fs.createWriteStream(out));

/**
 * `patchbay files decrypt` — encrypted files (docs/encryption.md) decrypted on this machine with an
 * identity file (age-keygen's, or an unencrypted SSH RSA private key); Patchbay never sees it.
 * A local age file (`--input`), a file by SID (Download Data), or with `--range` only a plaintext
 * byte range, fetching just the chunks that hold it through the file's public link.
 */
export function registerFiles(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const f = program.command('files').description('stored files');
  f.command('decrypt [file_sid]')
    .description('decrypt an encrypted file with your identity file, into -o <out> (- for stdout)')
    .requiredOption('-i, --identity <path>', 'identity file: age-keygen output or an SSH RSA private key')
    .option('--input <path>', 'a downloaded age file on disk, instead of a file_sid')
    .option('--range <start-end>', 'only these plaintext bytes (inclusive), fetched chunk by chunk')
    .requiredOption('-o, --out <path>', 'where to write the plaintext')
    .action(
      async (fileSid: string | undefined, o: { identity: string; input?: string; range?: string; out: string }) => {
        const identities = parseIdentities(fs.readFileSync(o.identity, 'utf8'));
        if (o.input) {
          await pipeline(fs.createReadStream(o.input), decryptStream(identities), output(o.out));
          return;
        }
        if (!fileSid) throw new Error('give a file_sid, or --input <age file>');
        const pb = apiClient(opts());
        if (!o.range) {
          await pipeline(await decryptedDownload(pb, fileSid, identities), output(o.out));
          return;
        }
        // why: asked without include_fields/exclude_fields, the answer is the whole File, not its Selection form.
        const file = (await data(
          pb.api.GET('/storage/files/{file_sid}', { params: { path: { file_sid: fileSid } } }),
        )) as Schemas['File'];
        const { start, end } = parseRange(o.range);
        const reader = await encryptedRangeReader(pb, file, identities);
        const out = output(o.out);
        await pipeline(reader.chunks(start, end), out);
        if (o.out !== '-')
          print({ file_sid: fileSid, start, plaintext_bytes: reader.plaintextBytes, bytes: fs.statSync(o.out).size });
      },
    );
}
