/**
 * Encrypted files (docs/encryption.md), for Node: a separate entry point of @patchbay/client
 * (`@patchbay/client/src/encrypted`), because the age format runs on node:crypto and the main
 * entry also serves browsers. Patchbay stores and serves the age file; decryption happens only
 * here, with an identity file the partner holds.
 *
 *   const identities = parseIdentities(fs.readFileSync('patchbay-key.txt', 'utf8'));
 *   const reader = await encryptedRangeReader(pb, file, identities);   // file: the File object
 *   const middle = await reader.read(1_000_000, 1_065_535);            // fetches one or two chunks
 */
import { AgeRangeReader, decryptStream, parseIdentities, type AgeDecryptStream, type Identity } from '@patchbay/age';
import type { PatchbayClient } from './client';
import { ok } from './data';
import { PatchbayApiError } from './errors';
import type { Schemas } from './types';
import { nodeReadable } from './node-streams';

export { parseIdentities };
export type { Identity };

type EncryptedFile = Pick<Schemas['File'], 'file_sid' | 'encryption' | 'file_bytes' | 'publish_uri'>;

/** The file's age layout, or a clear error for a file that is not encrypted. */
function layoutOf(file: EncryptedFile): { header_bytes: number; file_bytes: number } {
  if (!file.encryption) throw new Error(`file ${file.file_sid} is not encrypted`);
  return { header_bytes: file.encryption.header_bytes, file_bytes: file.file_bytes };
}

/**
 * A reader of plaintext ranges of an encrypted file that fetches, with Range requests on its
 * `publish_uri`, the header once and then only the 64 KiB chunks that hold the bytes asked for;
 * each chunk is authenticated before its bytes are returned. The file must be published (Download
 * Data has no ranges).
 */
export async function encryptedRangeReader(
  pb: PatchbayClient,
  file: EncryptedFile,
  identities: readonly Identity[],
): Promise<AgeRangeReader> {
  const layout = layoutOf(file);
  const uri = file.publish_uri;
  if (!uri) throw new Error(`file ${file.file_sid} has no publish_uri: ranges are read through the public link`);
  return AgeRangeReader.open({
    ...layout,
    identities,
    fetchRange: async (start, end) => {
      const res = await pb.publicFile(uri, {}, { range: `bytes=${start}-${end}` });
      if (res.status !== 206 && !(res.status === 200 && start === 0 && end === layout.file_bytes - 1))
        throw PatchbayApiError.from(res, await res.json().catch(() => undefined));
      return new Uint8Array(await res.arrayBuffer());
    },
  });
}

/**
 * The plaintext of an encrypted file, streamed: Download Data (the age file as stored) through
 * the age decrypter. Every chunk is verified before its plaintext is passed on; an altered or
 * truncated file ends in an error.
 */
export async function decryptedDownload(
  pb: PatchbayClient,
  fileSid: string,
  identities: readonly Identity[],
): Promise<AgeDecryptStream> {
  const { data: body } = await ok(
    pb.api.GET('/storage/files/{file_sid}/data', { params: { path: { file_sid: fileSid } }, parseAs: 'stream' }),
  );
  const dec = decryptStream(identities);
  const source = nodeReadable(body);
  source.once('error', (err) => dec.destroy(err));
  source.pipe(dec);
  return dec;
}
