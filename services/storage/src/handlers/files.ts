import { FilePatchSchema, FilePutSchema, Subjects, compileValidator, type GatewayRequest } from '@patchbay/contracts';
import type { HandlerContext } from '@patchbay/platform';
import type { StorageContext } from '../context';
import {
  FILE_PUT_DEFAULTS,
  deleteOwnedFile,
  fileForDownload,
  getFile,
  listFiles,
  resolvePublicFile,
  updateFile,
} from '../operations/files';

const validatePatch = compileValidator(FilePatchSchema);
const validatePut = compileValidator(FilePutSchema);

/** `/storage/files`, the download's look-up, and the public file server's resolve. */
export function fileHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.fileList]: (req: GatewayRequest, mc: HandlerContext) => listFiles(ctx, req, mc.replied),
    [Subjects.storage.fileGet]: (req: GatewayRequest) => getFile(ctx, req),
    [Subjects.storage.fileUpdate]: (req: GatewayRequest) =>
      updateFile(ctx, req.principal.partner_sid, req.params.file_sid, validatePatch(req.body ?? {})),
    [Subjects.storage.fileReplace]: (req: GatewayRequest) =>
      updateFile(ctx, req.principal.partner_sid, req.params.file_sid, {
        ...FILE_PUT_DEFAULTS,
        ...validatePut(req.body ?? {}),
      }),
    [Subjects.storage.fileDelete]: (req: GatewayRequest) =>
      deleteOwnedFile(ctx, req.principal.partner_sid, req.params.file_sid),
    [Subjects.storage.fileOpen]: (req: GatewayRequest) =>
      fileForDownload(ctx, req.principal.partner_sid, req.params.file_sid),
    [Subjects.storage.fileResolvePublic]: (req: { id: string }) => resolvePublicFile(ctx, req.id),
  };
}
