/** Bytes as a person reads them (binary units, as quotas are set). */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** An ISO timestamp as a short UTC date and time. */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '—';
}

/** A value safe to put inside a double-quoted filter string (quotes and backslashes dropped). */
export function filterText(s: string): string {
  return s.replace(/["\\]/g, '');
}

/** The storage behind a container, as a person names it. */
export function provider(type: string): string {
  const names: Record<string, string> = {
    internal: 'Patchbay',
    aws_s3: 'Amazon S3 (external)',
    gcp_storage: 'Google Cloud Storage (external)',
    azure_blob: 'Azure Blob Storage (external)',
  };
  return names[type] ?? type;
}

/** What a page of a counted list shows: `11–20 of 57`, and `0 of 0` for an empty one (never `1–0`). */
export function pageStatus(page: { offset: number; count: number; total?: number | null }): string {
  const total = page.total ?? '?';
  return page.count === 0 ? `0 of ${total}` : `${page.offset + 1}–${page.offset + page.count} of ${total}`;
}
