/** The fields the reference needs; dates as Date or ISO strings (store documents or API objects). */
export interface LruFile {
  file_sid: string;
  file_bytes: number;
  threshold_include: boolean;
  date_last_accessed: Date | string;
}

/**
 * What one sequential delete_lru sweep deletes: threshold_include files in LRU order
 * (date_last_accessed, then file_sid) while either count is above its target. The reference every
 * sweep — one replica or several — is compared with.
 */
export function expectedLru(
  c: { threshold_files_target: number | null; threshold_bytes_target: number | null },
  items: readonly object[],
): string[] {
  // API tests hold untyped JSON objects; both kinds carry the LruFile fields.
  const files = items as readonly LruFile[];
  const at = (f: LruFile) => new Date(f.date_last_accessed).getTime();
  const counted = files
    .filter((f) => f.threshold_include)
    .sort((a, b) => at(a) - at(b) || (a.file_sid < b.file_sid ? -1 : a.file_sid > b.file_sid ? 1 : 0));
  let n = counted.length;
  let bytes = counted.reduce((s, f) => s + f.file_bytes, 0);
  const over = () =>
    (c.threshold_files_target !== null && n > c.threshold_files_target) ||
    (c.threshold_bytes_target !== null && bytes > c.threshold_bytes_target);
  const out: string[] = [];
  for (const f of counted) {
    if (!over()) break;
    out.push(f.file_sid);
    n -= 1;
    bytes -= f.file_bytes;
  }
  return out;
}
