import {
  ContainerPatchSchema,
  ContainerPutSchema,
  Subjects,
  compileValidator,
  type GatewayRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import {
  checkContainer,
  createContainer,
  defaultContainer,
  deleteContainer,
  getContainer,
  listContainers,
} from '../operations/containers';
import { updateContainer } from '../operations/container-update';

const validatePatch = compileValidator(ContainerPatchSchema);
const validatePut = compileValidator(ContainerPutSchema);

/** `/storage/containers`, and the internal container look-ups of endpoint and the media plane. */
export function containerHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.containerCreate]: (req: GatewayRequest) =>
      createContainer(ctx, req.principal.partner_sid, validatePatch(req.body ?? {})),
    [Subjects.storage.containerList]: (req: GatewayRequest) => listContainers(ctx, req),
    [Subjects.storage.containerGet]: (req: GatewayRequest) => getContainer(ctx, req),
    [Subjects.storage.containerUpdate]: (req: GatewayRequest) =>
      updateContainer(ctx, req.principal.partner_sid, req.params.container_sid, validatePatch(req.body ?? {}), false),
    [Subjects.storage.containerReplace]: (req: GatewayRequest) =>
      updateContainer(ctx, req.principal.partner_sid, req.params.container_sid, validatePut(req.body ?? {}), true),
    [Subjects.storage.containerDelete]: (req: GatewayRequest) =>
      deleteContainer(ctx, req.principal.partner_sid, req.params.container_sid),
    [Subjects.storage.containerCheck]: (req: { partner_sid: string; container_sid: string }) =>
      checkContainer(ctx, req.partner_sid, req.container_sid),
    [Subjects.storage.containerDefault]: (req: { partner_sid: string }) => defaultContainer(ctx, req.partner_sid),
  };
}
