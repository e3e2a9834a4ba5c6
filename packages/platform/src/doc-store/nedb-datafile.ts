/**
 * Reads a datafile of the NeDB store that Patchbay used before SQLite (@seald-io/nedb 4), without
 * NeDB: the format is small and fixed, and reading it here keeps NeDB out of the dependencies.
 *
 * The file is append-only JSON lines. A line with an `_id` is a document (a later line with the same
 * `_id` replaces it); `{"$$deleted": true, "_id": …}` deletes it; `$$indexCreated`/`$$indexRemoved`
 * lines record indexes (the services recreate theirs at start, so they are skipped here). A Date is
 * `{"$$date": <ms>}`. A line that does not parse is corrupt: NeDB ignored up to 10 % of them (a
 * crash mid-append leaves one), and refused to load beyond that; so does this reader. While NeDB
 * compacted, it wrote `<file>~` first: when only that one exists, it is the data.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Doc } from './port';
import { isPlainObject } from './doc-paths';

export interface NedbSink {
  /** A document as of this line (`_id` removed), replacing any earlier one with the same id. */
  put(id: string, doc: Doc): void;
  delete(id: string): void;
}

export interface NedbReadStats {
  lines: number;
  corrupt: number;
}

/** NeDB's own limit: above this share of corrupt lines it refused to load the file. */
const CORRUPT_LIMIT = 0.1;

/** Streams `file` (or `file~`) into `sink` in file order; rejects when too much of it is corrupt. */
export async function readNedbDatafile(file: string, sink: NedbSink): Promise<NedbReadStats> {
  const source = existsSync(file) ? file : `${file}~`;
  const lines = createInterface({ input: createReadStream(source, 'utf8'), crlfDelay: Infinity });
  const stats: NedbReadStats = { lines: 0, corrupt: 0 };
  for await (const line of lines) {
    if (line === '') continue;
    stats.lines++;
    let doc: unknown;
    try {
      doc = JSON.parse(line, reviveNedbDate);
    } catch {
      stats.corrupt++;
      continue;
    }
    if (!isPlainObject(doc)) continue; // not a document (NeDB writes none such)
    const { _id: id, ...rest } = doc;
    if (typeof id !== 'string') continue; // an index line
    if (rest.$$deleted === true) sink.delete(id);
    else sink.put(id, rest);
  }
  if (stats.lines > 0 && stats.corrupt / stats.lines > CORRUPT_LIMIT)
    throw new Error(`${source}: ${stats.corrupt} of ${stats.lines} lines are corrupt; NeDB would not have loaded it`);
  return stats;
}

function reviveNedbDate(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('$$date' in value)) return value;
  return typeof value.$$date === 'number' && Object.keys(value).length === 1 ? new Date(value.$$date) : value;
}
