import { Type, type Static } from '@sinclair/typebox';
import { ScopeSchema } from './scopes';

const Timestamp = Type.String({ format: 'date-time' });

/** A partner as the API returns it (`password` is write-only and never returned). */
export const PartnerSchema = Type.Object(
  {
    attributes: Type.Record(Type.String(), Type.Unknown()),
    available_scopes: Type.Array(ScopeSchema),
    date_created: Timestamp,
    login: Type.String(),
    name: Type.String(),
    partner_sid: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  },
  { additionalProperties: false, $id: 'Partner' },
);
export type Partner = Static<typeof PartnerSchema>;

const Login = Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' });
const Password = Type.String({ minLength: 8, maxLength: 256 });

export const PartnerCreateSchema = Type.Object(
  {
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    available_scopes: Type.Optional(Type.Array(ScopeSchema, { uniqueItems: true })),
    login: Login,
    name: Type.Optional(Type.String({ maxLength: 256 })),
    password: Password,
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  },
  { additionalProperties: false, $id: 'PartnerCreate' },
);
export type PartnerCreate = Static<typeof PartnerCreateSchema>;

export const PartnerUpdateSchema = Type.Object(
  {
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    available_scopes: Type.Optional(Type.Array(ScopeSchema, { uniqueItems: true })),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    password: Type.Optional(Password),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  },
  { additionalProperties: false, $id: 'PartnerUpdate' },
);
export type PartnerUpdate = Static<typeof PartnerUpdateSchema>;
