import { ApiError, BadRequestError, isBusReply, type BusReply } from '@patchbay/contracts';

/** NATS header that carries the request ID from hop to hop. */
export const REQUEST_ID_HEADER = 'x-request-id';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/**
 * Bus payloads are JSON on the wire. `undefined` (no payload) travels as zero bytes. The in-process
 * bus stores and passes these same bytes, so Dates become strings and `undefined` fields vanish
 * there exactly as on NATS, and every handler gets its own copy.
 */
export function encodePayload(value: unknown): Uint8Array {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    // JSON.stringify recurses: a value nested thousands of levels deep overflows the stack. The
    // gateway refuses such bodies first (MAX_JSON_DEPTH); this keeps any other sender to a 400.
    if (err instanceof RangeError) throw new BadRequestError({ message: 'payload nested too deeply', cause: err });
    throw err;
  }
  return text === undefined ? EMPTY : encoder.encode(text);
}

/** Reads a payload written by `encodePayload`; malformed JSON is a 400, never a raw SyntaxError. */
export function decodePayload(data: Uint8Array): unknown {
  if (data.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(data)) as unknown;
  } catch (err) {
    throw new BadRequestError({ message: 'malformed bus payload', cause: err });
  }
}

/** Reads a reply off the wire; anything but a BusReply envelope is a 502 from the serving side. */
export function decodeReply(data: Uint8Array, subject: string): BusReply {
  let reply: unknown;
  try {
    reply = decodePayload(data);
  } catch {
    reply = undefined;
  }
  if (!isBusReply(reply)) throw new ApiError({ code: 'bad_reply', message: `malformed reply on ${subject}` });
  return reply;
}
