/**
 * Storage usage over time (docs/interface-notes.md, "Usage"): one snapshot of each container's counters
 * per UTC day, written by the threshold-worker's usage job a page of containers at a time (every tick
 * rewrites the day's, so a past day holds its last tick's counters), and read by
 * `GET /storage/containers/{sid}/usage`.
 */
import {
  BadRequestError,
  DuplicateKeyError,
  type ContainerUsage,
  type GatewayRequest,
  type UsageSnapshotReply,
  type UsageSnapshotRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { ownedContainer } from './containers';

const DAY = 86_400_000;
/** The longest range one answer covers, and the default one. */
const MAX_DAYS = 400;
const DEFAULT_DAYS = 30;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Writes the snapshot of `date` for each container of the page after `after`. */
export async function snapshotUsage(ctx: StorageContext, req: UsageSnapshotRequest): Promise<UsageSnapshotReply> {
  const page = await ctx.repo.containers.find(req.after === null ? {} : { container_sid: { $gt: req.after } }, {
    sort: { container_sid: 1 },
    limit: req.limit,
    projection: { container_sid: 1, partner_sid: 1, total_files: 1, total_bytes: 1 },
  });
  const now = new Date();
  for (const c of page) {
    const key = { container_sid: c.container_sid, date: req.date };
    const values = { partner_sid: c.partner_sid, files: c.total_files, bytes: c.total_bytes, date_modified: now };
    try {
      await ctx.repo.containerUsage.findOneAndUpdate(key, { $set: values }, { upsert: true });
    } catch (err) {
      // Two replicas upserting the same new day at once: the loser's write is an update of the winner's.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await ctx.repo.containerUsage.updateOne(key, { $set: values });
    }
  }
  return {
    written: page.length,
    next: page.length === req.limit ? page[page.length - 1].container_sid : null,
  };
}

function day(req: GatewayRequest, name: 'from' | 'to'): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw BadRequestError.field(name, `${name} must be a date, YYYY-MM-DD`);
  return v;
}

/** `GET /storage/containers/{sid}/usage`: the caller's container only (another partner's is a 404). */
export async function containerUsage(ctx: StorageContext, req: GatewayRequest): Promise<ContainerUsage> {
  const c = await ownedContainer(ctx, req.principal.partner_sid, String(req.params.container_sid ?? ''));
  const to = day(req, 'to') ?? new Date().toISOString().slice(0, 10);
  const from =
    day(req, 'from') ?? new Date(Date.parse(`${to}T00:00:00Z`) - DEFAULT_DAYS * DAY).toISOString().slice(0, 10);
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY;
  if (span < 0) throw BadRequestError.field('from', 'from must not be after to');
  if (span >= MAX_DAYS) throw BadRequestError.field('from', `a range holds at most ${MAX_DAYS} days`);
  const docs = await ctx.repo.containerUsage.find(
    { container_sid: c.container_sid, date: { $gte: from, $lte: to } },
    { sort: { date: 1 }, projection: { date: 1, files: 1, bytes: 1 } },
  );
  return {
    container_sid: c.container_sid,
    from,
    to,
    items: docs.map((d) => ({ date: d.date, files: d.files, bytes: d.bytes })),
  };
}
