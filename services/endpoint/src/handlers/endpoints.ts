import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { HandlerContext } from '@patchbay/platform';
import type { EndpointContext } from '../context';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, updateEndpoint } from '../operations/endpoints';

/** `/endpoints` (operations/endpoints.ts), each call logged under the request's ID. */
export function endpointHandlers(ctx: EndpointContext) {
  return {
    [Subjects.endpoint.create]: (req: GatewayRequest, mc: HandlerContext) => createEndpoint(ctx, req, mc.requestId),
    [Subjects.endpoint.list]: (req: GatewayRequest, mc: HandlerContext) =>
      listEndpoints(ctx, req, mc.requestId, mc.replied),
    [Subjects.endpoint.get]: (req: GatewayRequest, mc: HandlerContext) => getEndpoint(ctx, req, mc.requestId),
    [Subjects.endpoint.update]: (req: GatewayRequest, mc: HandlerContext) =>
      updateEndpoint(ctx, req, false, mc.requestId),
    [Subjects.endpoint.replace]: (req: GatewayRequest, mc: HandlerContext) =>
      updateEndpoint(ctx, req, true, mc.requestId),
    [Subjects.endpoint.delete]: (req: GatewayRequest, mc: HandlerContext) => deleteEndpoint(ctx, req, mc.requestId),
  };
}
