import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { HandlerContext } from '@patchbay/platform';
import type { PushContext } from '../context';
import { createDevice, deleteDevice, getDevice, listDevices, updateDevice } from '../operations/devices';

/** Devices: create (reusing an existing registration by default), read, list, update, delete. */
export function deviceHandlers(ctx: PushContext) {
  return {
    [Subjects.push.deviceCreate]: (req: GatewayRequest) => createDevice(ctx, req),
    [Subjects.push.deviceList]: (req: GatewayRequest, mc: HandlerContext) => listDevices(ctx, req, mc),
    [Subjects.push.deviceGet]: (req: GatewayRequest) => getDevice(ctx, req),
    [Subjects.push.deviceUpdate]: (req: GatewayRequest) => updateDevice(ctx, req, false),
    [Subjects.push.deviceReplace]: (req: GatewayRequest) => updateDevice(ctx, req, true),
    [Subjects.push.deviceDelete]: (req: GatewayRequest) => deleteDevice(ctx, req),
  };
}
