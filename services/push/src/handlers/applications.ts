import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { PushContext } from '../context';
import {
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  updateApplication,
} from '../operations/applications';

/** Applications: create, read, list, update (PATCH merges, PUT replaces), delete with their devices. */
export function applicationHandlers(ctx: PushContext) {
  return {
    [Subjects.push.applicationCreate]: (req: GatewayRequest) => createApplication(ctx, req),
    [Subjects.push.applicationList]: (req: GatewayRequest) => listApplications(ctx, req),
    [Subjects.push.applicationGet]: (req: GatewayRequest) => getApplication(ctx, req),
    [Subjects.push.applicationUpdate]: (req: GatewayRequest) => updateApplication(ctx, req, false),
    [Subjects.push.applicationReplace]: (req: GatewayRequest) => updateApplication(ctx, req, true),
    [Subjects.push.applicationDelete]: (req: GatewayRequest) => deleteApplication(ctx, req),
  };
}
