/**
 * The fixed numbers and strings of the age v1 format (https://age-encryption.org/v1), and its
 * base64 flavour: the standard alphabet without padding, canonical encodings only (age rejects a
 * non-canonical one, so a file has exactly one valid header encoding and the MAC means something).
 */
import { base64nopad } from '@scure/base';
import { AgeFormatError } from './errors';

/** The first line of every age v1 file. */
export const VERSION_LINE = 'age-encryption.org/v1';
/** Plaintext bytes per STREAM chunk (64 KiB); every chunk but the last is exactly this long. */
export const CHUNK_SIZE = 64 * 1024;
/** The Poly1305 tag after each chunk. */
export const TAG_SIZE = 16;
/** A full chunk as stored: 64 KiB of ciphertext plus its tag (65,552 bytes). */
export const SEALED_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE;
/** The random nonce between the header and the first chunk, salt of the payload key. */
export const PAYLOAD_NONCE_SIZE = 16;
/** The file key every recipient stanza wraps. */
export const FILE_KEY_SIZE = 16;
/** Stanza bodies are wrapped at 64 base64 columns; the last body line is always shorter. */
export const BODY_COLUMNS = 64;
/** A file may name 1 to 4 recipients (what a container may list). */
export const MAX_RECIPIENTS = 4;

/**
 * The streams' default buffer sizes: a few sealed chunks on the output side, so the next chunks can
 * be encrypted while the consumer (a disk write, an upload) is busy with the last ones. With Node's
 * 16 KiB default, each 64 KiB chunk alone fills the buffer and the two take turns.
 */
export const STREAM_BUFFERS = { readableHighWaterMark: 4 * SEALED_CHUNK_SIZE, writableHighWaterMark: CHUNK_SIZE };

/** Standard base64 without padding, as every age header field is written. */
export function encodeBase64(bytes: Uint8Array): string {
  return base64nopad.encode(bytes);
}

/** Decodes an age header base64 field, refusing padding, other alphabets and non-canonical forms. */
export function decodeBase64(text: string, what: string): Buffer {
  try {
    return Buffer.from(base64nopad.decode(text));
  } catch {
    throw new AgeFormatError(`${what} is not canonical unpadded base64`);
  }
}
