import { Subjects, type GatewayRequest, type UsageSnapshotRequest } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { containerUsage, snapshotUsage } from '../operations/container-usage';

/** Container usage: the threshold-worker's daily snapshots, and `GET /storage/containers/{sid}/usage`. */
export function usageHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.usageSnapshot]: (req: UsageSnapshotRequest) => snapshotUsage(ctx, req),
    [Subjects.storage.containerUsage]: (req: GatewayRequest) => containerUsage(ctx, req),
  };
}
