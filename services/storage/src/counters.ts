import { errorItem, UnprocessableError } from '@patchbay/contracts';
import type { Filter } from '@patchbay/platform';
import { thresholdReached } from './domain/container-rules';
import type { ContainerDoc } from './domain/documents';
import type { StorageRepo } from './repo';

/**
 * Container counters. Adding a file is one conditional `$inc` on the container document — atomic
 * in both stores — whose filter carries every limit (quota, reject threshold with its grace period),
 * so concurrent uploads can never pass a limit together.
 */
export async function addFile(
  repo: StorageRepo,
  c: ContainerDoc,
  size: number,
  countsForThreshold: boolean,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = attempt === 0 ? c : await repo.containers.findOne({ container_sid: c.container_sid });
    if (!current) throw UnprocessableError.field('container_sid', 'container does not exist');
    if (current.type !== 'internal') {
      // External containers have no space limits (docs/interface-notes.md, External containers): counted
      // only, the same counters a delete takes off (decisions §41).
      await repo.containers.updateOne(
        { container_sid: current.container_sid },
        { $inc: countsOf(size, countsForThreshold) },
      );
      return;
    }
    refuseIfFull(current, size, countsForThreshold);
    const guard: Filter = {
      container_sid: current.container_sid,
      quota_files: current.quota_files,
      quota_bytes: current.quota_bytes,
      threshold_action: current.threshold_action,
      threshold_files: current.threshold_files,
      threshold_bytes: current.threshold_bytes,
      threshold_grace_period: current.threshold_grace_period,
      total_files: { $lt: current.quota_files },
      total_bytes: { $lte: current.quota_bytes - size },
    };
    if (current.threshold_action === 'reject' && countsForThreshold) guard.$or = rejectGuard(current);
    const updated = await repo.containers.findOneAndUpdate(guard, { $inc: countsOf(size, countsForThreshold) });
    if (updated) {
      if (thresholdReached(updated) && !updated.threshold_exceeded_at) {
        await repo.containers.updateOne(
          { container_sid: c.container_sid, threshold_exceeded_at: null },
          { $set: { threshold_exceeded_at: new Date() } },
        );
      }
      return;
    }
    // The guard failed: either a limit was hit concurrently (refuseIfFull names it on the next
    // round) or the settings changed under us (retry with the new ones).
  }
  throw UnprocessableError.field('container_sid', 'container is busy; retry the upload');
}

/** A reject container takes an upload while under its thresholds, or during the grace period. */
function rejectGuard(c: ContainerDoc): Filter[] {
  const under: Filter = {};
  if (c.threshold_files !== null) under.threshold_total_files = { $lt: c.threshold_files };
  if (c.threshold_bytes !== null) under.threshold_total_bytes = { $lt: c.threshold_bytes };
  const graceStart = new Date(Date.now() - c.threshold_grace_period * 1000);
  return [under, { threshold_exceeded_at: { $gt: graceStart } }];
}

/** Throws the 422 naming the limit that refuses a file of `size` bytes (size 0: before the body is read). */
export function refuseIfFull(c: ContainerDoc, size: number, countsForThreshold: boolean): void {
  if (c.total_files >= c.quota_files)
    throw new UnprocessableError({
      code: 'quota_exceeded',
      errors: [errorItem(`container reached its quota of ${c.quota_files} files`, 'quota_files')],
    });
  if (c.total_bytes + size > c.quota_bytes || (size === 0 && c.total_bytes >= c.quota_bytes))
    throw new UnprocessableError({
      code: 'quota_exceeded',
      errors: [errorItem(`container reached its quota of ${c.quota_bytes} bytes`, 'quota_bytes')],
    });
  if (c.threshold_action === 'reject' && countsForThreshold && thresholdReached(c)) {
    const graceOver =
      !c.threshold_exceeded_at ||
      new Date(c.threshold_exceeded_at).getTime() + c.threshold_grace_period * 1000 <= Date.now();
    if (graceOver) {
      const field =
        c.threshold_files !== null && c.threshold_total_files >= c.threshold_files
          ? 'threshold_files'
          : 'threshold_bytes';
      throw UnprocessableError.field(field, `container is over its ${field} threshold`);
    }
  }
}

/** Takes a file's counts off its container and clears the grace period start once back under. */
export async function removeFile(
  repo: StorageRepo,
  containerSid: string,
  size: number,
  countedForThreshold: boolean,
): Promise<void> {
  const inc = countsOf(-size, countedForThreshold, -1);
  const updated = await repo.containers.findOneAndUpdate({ container_sid: containerSid }, { $inc: inc });
  if (updated) await syncExceeded(repo, await clampAtZero(repo, updated, Object.keys(inc)));
}

type Counter = 'total_files' | 'total_bytes' | 'threshold_total_files' | 'threshold_total_bytes';

/** The counter increments of one file of `size` bytes (`files` -1 and a negative size take it off). */
function countsOf(size: number, countsForThreshold: boolean, files = 1): Record<string, number> {
  return countsForThreshold
    ? { total_files: files, total_bytes: size, threshold_total_files: files, threshold_total_bytes: size }
    : { total_files: files, total_bytes: size };
}

const isCounter = (field: string): field is Counter =>
  ['total_files', 'total_bytes', 'threshold_total_files', 'threshold_total_bytes'].includes(field);

/**
 * Counters never go below zero: one that did (a file counted before the counters were kept both
 * ways, or counted by an older version) is set back to 0, each with its own conditional write so a
 * concurrent increment is never lost. The maintenance reconcile recounts from the files.
 */
async function clampAtZero(repo: StorageRepo, c: ContainerDoc, fields: string[]): Promise<ContainerDoc> {
  const below = fields.filter(isCounter).filter((f) => c[f] < 0);
  for (const f of below)
    await repo.containers.updateOne({ container_sid: c.container_sid, [f]: { $lt: 0 } }, { $set: { [f]: 0 } });
  if (below.length === 0) return c;
  return (await repo.containers.findOne({ container_sid: c.container_sid })) ?? c;
}

/** Moves a file in or out of the threshold counts (its `threshold_include` changed). */
export async function setThresholdInclusion(
  repo: StorageRepo,
  containerSid: string,
  size: number,
  include: boolean,
): Promise<void> {
  const sign = include ? 1 : -1;
  const updated = await repo.containers.findOneAndUpdate(
    { container_sid: containerSid },
    { $inc: { threshold_total_files: sign, threshold_total_bytes: sign * size } },
  );
  if (updated)
    await syncExceeded(repo, await clampAtZero(repo, updated, ['threshold_total_files', 'threshold_total_bytes']));
}

/** Starts or clears the grace period by whether a threshold is reached (idempotent). */
export async function syncExceeded(repo: StorageRepo, c: ContainerDoc): Promise<void> {
  const reached = thresholdReached(c);
  if (!reached && c.threshold_exceeded_at)
    await repo.containers.updateOne({ container_sid: c.container_sid }, { $set: { threshold_exceeded_at: null } });
  if (reached && !c.threshold_exceeded_at)
    await repo.containers.updateOne(
      { container_sid: c.container_sid, threshold_exceeded_at: null },
      { $set: { threshold_exceeded_at: new Date() } },
    );
}
