import {
  FileUploadSchema,
  Subjects,
  compileValidator,
  type ExportPrepareRequest,
  type UploadAbortRequest,
  type UploadCommitRequest,
  type UploadPrepareRequest,
  type UploadReserveRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { abortUpload, prepareExportUpload, prepareUpload, reserveUpload } from '../operations/uploads';
import { commitUpload } from '../operations/upload-commit';

const validateJson = compileValidator(FileUploadSchema);
const validateQuery = compileValidator(FileUploadSchema, { fromStrings: true });

/**
 * The steps of an upload around the byte stream the gateway carries (operations/uploads.ts), and the prepare of a
 * record export's file, whose bytes the records service carries.
 */
export function uploadHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.uploadPrepare]: (req: UploadPrepareRequest) =>
      prepareUpload(
        ctx,
        req.principal,
        (req.source === 'query' ? validateQuery : validateJson)(req.fields ?? {}),
        req.reserved,
        req.idempotency_key,
      ),
    [Subjects.storage.exportPrepare]: (req: ExportPrepareRequest) =>
      prepareExportUpload(ctx, req.principal, validateJson(req.fields ?? {}), req.idempotency_key),
    [Subjects.storage.uploadReserve]: (req: UploadReserveRequest) => reserveUpload(ctx, req.principal),
    [Subjects.storage.uploadCommit]: (req: UploadCommitRequest) => commitUpload(ctx, req),
    [Subjects.storage.uploadAbort]: (req: UploadAbortRequest) => abortUpload(ctx, req.principal, req.file_sid),
  };
}
