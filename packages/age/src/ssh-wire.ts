/**
 * The SSH wire encoding of RFC 4251 §5, as far as RSA keys need it: `uint32`, `string` (a 4-byte
 * big-endian length and that many bytes) and `mpint` (a string holding a two's-complement
 * big-endian integer). An `ssh-rsa AAAA…` public key, the OpenSSH private-key container and the
 * age `ssh-rsa` stanza tag (SHA-256 of the public key's wire form) are all built from these three.
 * Three primitives did not justify a dependency; node:crypto does every cryptographic step.
 */

/** Reads SSH wire fields in order; every read checks its length against what is left. */
export class SshWireReader {
  private offset = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly what: string,
  ) {}

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  uint32(): number {
    this.need(4);
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  string(): Buffer {
    const length = this.uint32();
    this.need(length);
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** A non-negative mpint as unsigned big-endian bytes without leading zeros (a JWK wants that). */
  unsignedMpint(): Buffer {
    const raw = this.string();
    if (raw.length > 0 && (raw[0] & 0x80) !== 0) throw new Error(`${this.what}: negative integer`);
    let start = 0;
    while (start < raw.length && raw[start] === 0) start++;
    return raw.subarray(start);
  }

  /** Throws unless every byte was read: trailing bytes mean a different or damaged structure. */
  end(): void {
    if (this.remaining !== 0) throw new Error(`${this.what}: ${this.remaining} unexpected trailing bytes`);
  }

  private need(length: number): void {
    if (length > this.remaining) throw new Error(`${this.what}: truncated`);
  }
}

/** The bit length of an unsigned big-endian integer (for the RSA modulus size). */
export function bitLength(unsigned: Buffer): number {
  if (unsigned.length === 0) return 0;
  return (unsigned.length - 1) * 8 + (32 - Math.clz32(unsigned[0]));
}

/** An SSH `string`: a 4-byte big-endian length, then the bytes. */
export function sshString(bytes: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH `mpint` of a non-negative integer given as unsigned big-endian bytes. */
export function sshMpint(unsigned: Uint8Array): Buffer {
  let start = 0;
  while (start < unsigned.length && unsigned[start] === 0) start++;
  const trimmed = unsigned.subarray(start);
  const needsZero = trimmed.length > 0 && (trimmed[0] & 0x80) !== 0;
  return sshString(needsZero ? Buffer.concat([Buffer.alloc(1), trimmed]) : trimmed);
}
