/**
 * The chunks of a byte stream as Buffers. Node's streams and the SDKs' bodies type their chunks
 * `any`; a byte stream's are Buffers or other Uint8Array views (taken without a copy), and text is
 * encoded as UTF-8. Anything else is a bug upstream and fails loudly instead of being passed on.
 */
export function asBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  // ArrayBuffer.isView, not instanceof: a view from another realm (jest's) is still bytes.
  if (ArrayBuffer.isView(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError(`a byte stream yielded a ${typeof chunk}, not bytes`);
}

/** Each chunk of `src` as a Buffer (asBuffer). */
export async function* byteChunks(src: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of src) yield asBuffer(chunk);
}
