import { fileSidOfBlobKey } from '@patchbay/contracts';

/**
 * Which listed blobs belong to nothing (pure; operations/orphan-blobs.ts does the I/O): a key of this layout
 * (`files/<partner>/<sid>[.<fmt>]`, `cache/<sid>/…`) whose file is gone — or, for `files/`, is not the file's current
 * blob (a transcoding result it no longer uses) — and which no pending upload holds. Keys of another layout are
 * never candidates: not ours to remove.
 */
export function orphanCandidates(
  keys: readonly string[],
  files: ReadonlyMap<string, string>,
  uploads: ReadonlySet<string>,
): string[] {
  return keys.filter((key) => {
    const sid = fileSidOfBlobKey(key);
    if (sid === undefined || uploads.has(sid)) return false;
    const blobKey = files.get(sid);
    if (blobKey === undefined) return true;
    return !key.startsWith('cache/') && blobKey !== key;
  });
}

/** The file SIDs a batch of blob keys names, each once. */
export function fileSidsOf(keys: readonly string[]): string[] {
  return [...new Set(keys.map(fileSidOfBlobKey).filter((s): s is string => s !== undefined))];
}
