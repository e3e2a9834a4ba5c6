import {
  EncryptionKeyCreateSchema,
  EncryptionKeyPatchSchema,
  EncryptionKeySchema,
  ListEnvelopeSchema,
  Subjects,
} from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';

const MANAGE = 'storage.manage';

/** A partner's public keys for encrypted containers (docs/interface-notes.md §20; docs/encryption.md). */
export const ENCRYPTION_KEY_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/storage/encryption_keys',
    subject: Subjects.storage.keyCreate,
    scopes: [MANAGE],
    doc: {
      summary: 'Register a public key',
      description:
        'An age X25519 recipient (`age1…`) or an SSH RSA public key of 2048 ' +
        'bits or more; anything else is a 422 naming `public_key`. Patchbay ' +
        'never holds a private key.',
      request: EncryptionKeyCreateSchema,
      responses: { 201: EncryptionKeySchema },
    },
  },
  {
    method: 'get',
    path: '/storage/encryption_keys',
    subject: Subjects.storage.keyList,
    scopes: [MANAGE, 'storage.read'],
    doc: { summary: 'List public keys', list: 'offset', responses: { 200: ListEnvelopeSchema(EncryptionKeySchema) } },
  },
  {
    method: 'get',
    path: '/storage/encryption_keys/:encryption_key_sid',
    subject: Subjects.storage.keyGet,
    scopes: [MANAGE, 'storage.read'],
    doc: { summary: 'Get a public key', fields: true, responses: { 200: EncryptionKeySchema } },
  },
  {
    method: 'patch',
    path: '/storage/encryption_keys/:encryption_key_sid',
    subject: Subjects.storage.keyUpdate,
    scopes: [MANAGE],
    doc: {
      summary: 'Rename a public key (the key itself cannot change)',
      request: EncryptionKeyPatchSchema,
      responses: { 200: EncryptionKeySchema },
    },
  },
  {
    method: 'delete',
    path: '/storage/encryption_keys/:encryption_key_sid',
    subject: Subjects.storage.keyDelete,
    scopes: [MANAGE],
    doc: {
      summary: 'Delete a public key',
      description: 'A key a container names in `encryption_key_sids`: 409.',
      responses: { 204: null },
      errors: [409],
    },
  },
];
