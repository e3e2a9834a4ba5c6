import { Type, type Static } from '@sinclair/typebox';

/**
 * A partner's public key that files can be encrypted to (docs/interface-notes.md §20):
 * an age X25519 recipient (`age1…`) or an SSH RSA public key of 2048 bits or more. Patchbay holds
 * public keys only; a container names up to four of them in `encryption_key_sids`.
 */
export const KEY_TYPES = ['age-x25519', 'ssh-rsa'] as const;

/** The most keys a container may name (one header stanza each). */
export const MAX_CONTAINER_KEYS = 4;

/** Read-only fields a client may send back (ignored, not errors). */
const keyReadOnly = {
  date_created: Type.Unknown(),
  encryption_key_sid: Type.Unknown(),
  fingerprint: Type.Unknown(),
  key_type: Type.Unknown(),
  partner_sid: Type.Unknown(),
};

/** POST /storage/encryption_keys. */
export const EncryptionKeyCreateSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 256 })),
    public_key: Type.String({ minLength: 1, maxLength: 16384 }),
    ...Object.fromEntries(Object.entries(keyReadOnly).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false, $id: 'EncryptionKeyCreate' },
);
export type EncryptionKeyCreate = Static<typeof EncryptionKeyCreateSchema>;

/** PATCH /storage/encryption_keys/{sid}: the name only (a key's bytes never change). */
export const EncryptionKeyPatchSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 256 })),
    public_key: Type.Optional(Type.Unknown()),
    ...Object.fromEntries(Object.entries(keyReadOnly).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false, $id: 'EncryptionKeyPatch' },
);
export type EncryptionKeyPatch = Static<typeof EncryptionKeyPatchSchema>;

export const EncryptionKeySchema = Type.Object(
  {
    date_created: Type.String({ format: 'date-time' }),
    encryption_key_sid: Type.String({ format: 'uuid' }),
    fingerprint: Type.String(),
    key_type: Type.Union(KEY_TYPES.map((t) => Type.Literal(t))),
    name: Type.String(),
    partner_sid: Type.String({ format: 'uuid' }),
    public_key: Type.String(),
  },
  { additionalProperties: false, $id: 'EncryptionKey' },
);
export type EncryptionKey = Static<typeof EncryptionKeySchema>;

/** A file's `encryption`: how its stored bytes are encrypted (null for a plain file). */
export const FileEncryptionSchema = Type.Object(
  {
    encryption_key_sids: Type.Array(Type.String()),
    format: Type.Literal('age-v1'),
    header_bytes: Type.Integer({ minimum: 0 }),
    plaintext_bytes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'FileEncryption' },
);
export type FileEncryption = Static<typeof FileEncryptionSchema>;
