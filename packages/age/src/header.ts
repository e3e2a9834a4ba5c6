/**
 * The age v1 header (https://age-encryption.org/v1, "Header"): the version line, one stanza per
 * recipient, and `--- <MAC>`, where the MAC is HMAC-SHA-256 under HKDF(file key, "", "header") of
 * every byte up to and including `---`. Parsing is as strict as age's own: canonical base64, body
 * lines of exactly 64 columns but the last, which is shorter (empty when the body fills the line).
 */
import { AgeFormatError } from './errors';
import { BODY_COLUMNS, decodeBase64, encodeBase64, VERSION_LINE } from './format';
import { hkdf, hmacSha256 } from './primitives';
import type { Stanza } from './stanza';

/** A header larger than this is refused rather than buffered (four RSA-16384 stanzas need ~12 KiB). */
export const MAX_HEADER_BYTES = 64 * 1024;
const MAC_PREFIX = '--- ';
const ARG = /^[\x21-\x7e]+$/;

export interface ParsedHeader {
  readonly stanzas: Stanza[];
  /** The bytes the MAC covers: from the start through `---`. */
  readonly macInput: Buffer;
  readonly mac: Buffer;
  /** The header's length through its final newline; the payload nonce starts here. */
  readonly headerBytes: number;
}

export function headerMac(fileKey: Buffer, macInput: Uint8Array): Buffer {
  return hmacSha256(hkdf(fileKey, Buffer.alloc(0), 'header'), macInput);
}

/** The whole header, MAC line included, for these stanzas and this file key. */
export function encodeHeader(stanzas: readonly Stanza[], fileKey: Buffer): Buffer {
  let text = `${VERSION_LINE}\n`;
  for (const { type, args, body } of stanzas) {
    text += `-> ${[type, ...args].join(' ')}\n`;
    const b64 = encodeBase64(body);
    for (let i = 0; i <= b64.length; i += BODY_COLUMNS) text += `${b64.slice(i, i + BODY_COLUMNS)}\n`;
  }
  const macInput = Buffer.from(`${text}---`, 'latin1');
  return Buffer.concat([macInput, Buffer.from(` ${encodeBase64(headerMac(fileKey, macInput))}\n`, 'latin1')]);
}

/**
 * Parses the header at the start of `bytes`. Returns null when `bytes` ends before the MAC line
 * does (read more and call again); throws AgeFormatError for anything that is not a valid header.
 */
export function parseHeader(bytes: Buffer): ParsedHeader | null {
  const header = parseComplete(bytes);
  if (!header && bytes.length > MAX_HEADER_BYTES)
    throw new AgeFormatError(`the header exceeds ${MAX_HEADER_BYTES} bytes`);
  return header;
}

function parseComplete(bytes: Buffer): ParsedHeader | null {
  let pos = 0;
  const nextLine = (): string | null => {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) return null;
    const line = bytes.toString('latin1', pos, end);
    pos = end + 1;
    return line;
  };
  const version = nextLine();
  if (version === null) return null;
  if (version !== VERSION_LINE) throw new AgeFormatError('not an age v1 file (the first line is not the version line)');
  const stanzas: Stanza[] = [];
  for (;;) {
    const lineStart = pos;
    const line = nextLine();
    if (line === null) return null;
    if (line.startsWith(MAC_PREFIX)) {
      const mac = decodeBase64(line.slice(MAC_PREFIX.length), 'the header MAC');
      if (mac.length !== 32) throw new AgeFormatError('the header MAC must be 32 bytes');
      return { stanzas, mac, macInput: bytes.subarray(0, lineStart + 3), headerBytes: pos };
    }
    if (!line.startsWith('-> ')) throw new AgeFormatError('a header line is neither a stanza nor the MAC line');
    const [type, ...args] = line.slice(3).split(' ');
    if (![type, ...args].every((arg) => ARG.test(arg)))
      throw new AgeFormatError('a stanza has an empty or bad argument');
    const body: Buffer[] = [];
    for (;;) {
      const bodyLine = nextLine();
      if (bodyLine === null) return null;
      if (bodyLine.length > BODY_COLUMNS)
        throw new AgeFormatError(`a stanza body line exceeds ${BODY_COLUMNS} columns`);
      body.push(decodeBase64(bodyLine, 'a stanza body'));
      if (bodyLine.length < BODY_COLUMNS) break;
    }
    stanzas.push({ type, args, body: Buffer.concat(body) });
  }
}
