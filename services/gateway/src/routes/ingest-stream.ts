import { Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import { parser } from 'stream-json';
import JsonlParser from 'stream-json/jsonl/Parser';
import { streamArray } from 'stream-json/streamers/StreamArray';
import { isDecompressionError } from '@patchbay/platform';

/** How the body lists its records. */
export type IngestFormat = 'json-array' | 'ndjson';

/** One record slot of the body: its 0-based position and its JSON value, or why it is unreadable. */
export type BodyItem = { position: number; value: unknown } | { position: number; error: string };

/** Marks an NDJSON line that is not valid JSON (stream-json's `errorIndicator` hook). */
class BadLine {
  constructor(readonly message: string) {}
}

/** The body could not be read past some point (broken JSON array, runaway record, aborted request). */
export class BodyStopped extends Error {}

/** The JSONL parser's options with `errorIndicator`, which @types/stream-json lacks (stream-json 1.9 documents it). */
interface JsonlOptions extends JsonlParser.JsonlParserOptions {
  errorIndicator?: (error: Error) => unknown;
}

/**
 * Bytes read ahead of the last record the consumer took. Legitimate buffering (stream buffers and
 * up to 16 parsed records waiting) stays far below it; a single value growing past it is refused
 * before it is assembled in memory.
 */
const MAX_BYTES_AHEAD = 4 * 1024 * 1024;

/**
 * Reads the records of a bulk-ingest body incrementally — never the whole body in memory:
 * `json-array` is one JSON array (stream-json's parser and array streamer emit each element as
 * soon as it is complete); `ndjson` is one JSON value per line (empty lines skipped, a broken line
 * is reported at its position and skipped). Positions count the array's elements or the non-empty
 * lines. Reading pauses while the consumer is busy (backpressure reaches the socket). Throws
 * BodyStopped when the body cannot be read further.
 */
export async function* readBodyItems(body: Readable, format: IngestFormat): AsyncGenerator<BodyItem> {
  let ahead = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      ahead += chunk.length;
      if (ahead > MAX_BYTES_AHEAD) done(new BodyStopped(`a record is larger than ${MAX_BYTES_AHEAD} bytes`));
      else done(null, chunk);
    },
  });
  const jsonl: JsonlOptions = { errorIndicator: (e: Error) => new BadLine(e.message) };
  const records = format === 'ndjson' ? new JsonlParser(jsonl) : ([parser(), streamArray()] as const);
  const stages = Array.isArray(records) ? records : [records];
  pipeline([body, meter, ...stages], () => undefined);
  // The last stage (stream-json's streamArray, or the JSONL parser) yields `{key, value}` objects.
  const out: AsyncIterable<{ key: number; value: unknown }> = stages[stages.length - 1];
  try {
    for await (const { key, value } of out) {
      ahead = 0;
      yield value instanceof BadLine
        ? { position: key, error: `invalid JSON: ${value.message}` }
        : { position: key, value };
    }
  } catch (err) {
    if (err instanceof BodyStopped) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (isDecompressionError(err)) throw new BodyStopped('the body is not valid data of its Content-Encoding');
    throw new BodyStopped(
      /aborted|premature close/i.test(message) ? 'the request was aborted' : `invalid JSON: ${message}`,
    );
  }
}
