import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { data, type Schemas, type UploadFields } from '@patchbay/client';
import { decryptStream } from '@patchbay/age';
import { decryptedDownload, encryptedRangeReader, parseIdentities } from '@patchbay/client/src/encrypted';
import { IDEMPOTENCY_KEY_OPTION, apiClient, type ClientOptions } from '../client';
import { examples } from '../help';
import { objectPages, pageSize } from '../lists';
import { listFormat, listOptions, printJson, printList, type ListFlags } from '../output';
import { userPath } from '../paths';
import { defaultContainer, downloadFile, uploadFile } from './file-transfer';

/** `<start>-<end>` (inclusive) or `<start>-` (to the end). */
function parseRange(text: string): { start: number; end: number } {
  const m = /^(\d+)-(\d*)$/.exec(text);
  if (!m) throw new Error(`--range must be <start>-<end> or <start>-, not ${text}`);
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (end < start) throw new Error('--range: the end comes before the start');
  return { start, end };
}

const output = (out: string): Writable => (out === '-' ? process.stdout : fs.createWriteStream(userPath(out)));

const COLUMNS = ['file_sid', 'name', 'file_bytes', 'mime_type', 'container_sid', 'publish_uri'];

interface UploadFlags {
  container?: string;
  name?: string;
  publish?: UploadFields['publish'] | true;
  type?: UploadFields['type'];
  desiredFormat?: UploadFields['desired_format'];
  idempotencyKey?: string;
}

/**
 * `patchbay files list|get|upload|download|delete|decrypt`. Paths are the user's, relative to the
 * directory the command was run in. `decrypt`: encrypted files (docs/encryption.md) decrypted on
 * this machine with an identity file (age-keygen's, or an unencrypted SSH RSA private key); Patchbay
 * never sees it — a local age file (`--input`), a file by SID (Download Data), or with `--range`
 * only a plaintext byte range, fetching just the chunks that hold it through the file's public link.
 */
export function registerFiles(program: Command, opts: () => ClientOptions): void {
  const f = program.command('files').description('stored files (scopes storage.*)');
  examples(f, 'patchbay files upload greeting.wav --publish', 'patchbay files list');

  examples(
    listOptions(f.command('list').description('your files, newest last'), 'files')
      .option('--container <container_sid>', 'only the files of this container')
      .option('--filter <expr>', 'e.g. \'name like "%.wav"\'')
      .action(async (o: ListFlags & { container?: string; filter?: string }) => {
        const byContainer = o.container ? `container_sid eq ${JSON.stringify(o.container)}` : '';
        const filter = [byContainer, o.filter ?? ''].filter(Boolean).join(' and ');
        const query = { limit: pageSize(o), filter: filter || undefined };
        const pb = apiClient(opts());
        await printList(objectPages(pb, '/storage/files', query, Boolean(o.all)), listFormat(o), COLUMNS, !!o.all);
      }),
    'patchbay files list --filter \'name like "%.wav"\'',
    'patchbay files list --container 6f1c… --all --csv > files.csv',
  );

  examples(
    f
      .command('get <file_sid>')
      .description('one file (its fields, not its bytes: see download)')
      .action(async (sid: string) => {
        const params = { path: { file_sid: sid } };
        printJson(await data(apiClient(opts()).api.GET('/storage/files/{file_sid}', { params })));
      }),
    'patchbay files get 9d4e…',
  );

  examples(
    f
      .command('upload <path>')
      .description('store a file (streamed; a progress bar on a terminal); prints the File')
      .option('--container <container_sid>', 'where to store it (default: your default container)')
      .option('--name <name>', 'the file name (default: the name of <path>)')
      .option('--publish [how]', 'give it a public link: file_sid (the default) or file_access_name')
      .option('--type <type>', 'audio (probed, may be transcoded) or file')
      .option('--desired-format <format>', 'transcode on upload to wav, mp3, ogg, flac, ulaw, alaw, g722, mp4…')
      .option(...IDEMPOTENCY_KEY_OPTION)
      .action(async (file: string, o: UploadFlags) => {
        const pb = apiClient(opts());
        const local = userPath(file);
        const fields: UploadFields = {
          container_sid: o.container ?? (await defaultContainer(pb)),
          name: o.name ?? path.basename(local),
          publish: o.publish === true ? 'file_sid' : o.publish,
          type: o.type,
          desired_format: o.desiredFormat,
        };
        printJson(await uploadFile(pb, local, fields, o.idempotencyKey));
      }),
    'patchbay files upload greeting.wav --type audio --publish',
    'patchbay files upload ./calls/0412.ogg --container 6f1c… --desired-format mp3',
  );

  examples(
    f
      .command('download <file_sid>')
      .description("save a file's bytes (default: under its name, in the current directory)")
      .option('-o, --out <path>', 'where to write it (- for stdout)')
      .option('--force', 'overwrite the file at --out')
      .action(async (sid: string, o: { out?: string; force?: boolean }) => {
        const pb = apiClient(opts());
        const name = o.out ?? (await fileName(sid, pb));
        const out = userPath(name);
        await downloadFile(pb, sid, out, Boolean(o.force));
        if (out !== '-') process.stderr.write(`saved ${out}\n`);
      }),
    'patchbay files download 9d4e…',
    'patchbay files download 9d4e… -o greeting-copy.wav',
    'patchbay files download 9d4e… -o - | ffplay -',
  );

  examples(
    f
      .command('delete <file_sid>')
      .description('delete a file and its bytes')
      .action(async (sid: string) => {
        const params = { path: { file_sid: sid } };
        await data(apiClient(opts()).api.DELETE('/storage/files/{file_sid}', { params }));
        process.stderr.write(`deleted file ${sid}\n`);
      }),
    'patchbay files delete 9d4e…',
  );

  examples(
    f
      .command('decrypt [file_sid]')
      .description('decrypt an encrypted file with your identity file, into -o <out> (- for stdout)')
      .requiredOption('-i, --identity <path>', 'identity file: age-keygen output or an SSH RSA private key')
      .option('--input <path>', 'a downloaded age file on disk, instead of a file_sid')
      .option('--range <start-end>', 'only these plaintext bytes (inclusive), fetched chunk by chunk')
      .requiredOption('-o, --out <path>', 'where to write the plaintext')
      .action(
        async (fileSid: string | undefined, o: { identity: string; input?: string; range?: string; out: string }) => {
          const identities = parseIdentities(fs.readFileSync(userPath(o.identity), 'utf8'));
          if (o.input) {
            await pipeline(fs.createReadStream(userPath(o.input)), decryptStream(identities), output(o.out));
            return;
          }
          if (!fileSid) throw new Error('give a file_sid, or --input <age file>');
          const pb = apiClient(opts());
          if (!o.range) {
            await pipeline(await decryptedDownload(pb, fileSid, identities), output(o.out));
            return;
          }
          const file = await wholeFile(pb, fileSid);
          const { start, end } = parseRange(o.range);
          const reader = await encryptedRangeReader(pb, file, identities);
          await pipeline(reader.chunks(start, end), output(o.out));
          if (o.out !== '-') {
            const bytes = fs.statSync(userPath(o.out)).size;
            printJson({ file_sid: fileSid, start, plaintext_bytes: reader.plaintextBytes, bytes });
          }
        },
      ),
    'patchbay files decrypt 9d4e… -i patchbay-key.txt -o greeting.wav',
    'patchbay files decrypt --input greeting.wav.age -i patchbay-key.txt -o greeting.wav',
  );
}

/** A file as the API describes it, every field. */
async function wholeFile(pb: ReturnType<typeof apiClient>, sid: string): Promise<Schemas['File']> {
  const params = { path: { file_sid: sid } };
  // why: asked without include_fields/exclude_fields, the answer is the whole File, not its Selection form.
  return (await data(pb.api.GET('/storage/files/{file_sid}', { params }))) as Schemas['File'];
}

/** A file's name as a safe local name (no directory part): where `download` saves it by default. */
async function fileName(sid: string, pb: ReturnType<typeof apiClient>): Promise<string> {
  const file = await wholeFile(pb, sid);
  const base = path.basename(file.name.replace(/\\/g, '/'));
  return base && base !== '.' && base !== '..' ? base : sid;
}
