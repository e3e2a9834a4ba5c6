import {
  EncryptionKeyCreateSchema,
  EncryptionKeyPatchSchema,
  Subjects,
  compileValidator,
  type GatewayRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { deleteKey, getKey, listKeys, registerKey, renameKey } from '../operations/encryption-keys';

const validateCreate = compileValidator(EncryptionKeyCreateSchema);
const validatePatch = compileValidator(EncryptionKeyPatchSchema);

/** `/storage/encryption_keys`: a partner's public keys (docs/interface-notes.md §20). */
export function encryptionKeyHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.keyCreate]: (req: GatewayRequest) =>
      registerKey(ctx, req.principal.partner_sid, validateCreate(req.body ?? {})),
    [Subjects.storage.keyList]: (req: GatewayRequest) => listKeys(ctx, req),
    [Subjects.storage.keyGet]: (req: GatewayRequest) => getKey(ctx, req),
    [Subjects.storage.keyUpdate]: (req: GatewayRequest) =>
      renameKey(ctx, req.principal.partner_sid, req.params.encryption_key_sid, validatePatch(req.body ?? {})),
    [Subjects.storage.keyDelete]: (req: GatewayRequest) =>
      deleteKey(ctx, req.principal.partner_sid, req.params.encryption_key_sid),
  };
}
