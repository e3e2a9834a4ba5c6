import { Type, type Static } from '@sinclair/typebox';
import { PartnerSchema } from './partner';

export const DEVICE_TYPES = ['android', 'ios', 'web'] as const;
const DeviceTypeSchema = Type.Union([Type.Literal('android'), Type.Literal('ios'), Type.Literal('web')]);
export type DeviceType = (typeof DEVICE_TYPES)[number];
export const DEVICE_ENVIRONMENTS = ['production', 'development'] as const;
const EnvironmentSchema = Type.Union([Type.Literal('production'), Type.Literal('development')]);
export type DeviceEnvironment = (typeof DEVICE_ENVIRONMENTS)[number];

const Ignored = () => Type.Optional(Type.Unknown());

/** A device as returned (`partner` only with `with_related=true`). */
export const PushDeviceSchema = Type.Object(
  {
    application_sid: Type.String({ format: 'uuid' }),
    application_version: Type.String(),
    device_sid: Type.String({ format: 'uuid' }),
    environment: EnvironmentSchema,
    os_version: Type.String(),
    partner: Type.Optional(PartnerSchema),
    partner_sid: Type.String({ format: 'uuid' }),
    token: Type.String(),
    type: DeviceTypeSchema,
  },
  { additionalProperties: false, $id: 'PushDevice' },
);
export type PushDevice = Static<typeof PushDeviceSchema>;

/** A provider token: printable ASCII without spaces (FCM tokens carry `:`, `-`, `_`; APNs tokens are hex). */
const Token = Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' });

const deviceWritable = {
  application_sid: Type.String({ format: 'uuid' }),
  application_version: Type.String({ maxLength: 256 }),
  environment: EnvironmentSchema,
  os_version: Type.String({ maxLength: 256 }),
  token: Token,
  type: DeviceTypeSchema,
};
const deviceReadOnly = { device_sid: Ignored(), partner: Ignored(), partner_sid: Ignored() };

/** POST /push/devices and PUT: `application_sid`, `type` and `token` required. */
export const PushDeviceCreateSchema = Type.Object(
  {
    application_sid: deviceWritable.application_sid,
    application_version: Type.Optional(deviceWritable.application_version),
    environment: Type.Optional(deviceWritable.environment),
    os_version: Type.Optional(deviceWritable.os_version),
    token: deviceWritable.token,
    type: deviceWritable.type,
    ...deviceReadOnly,
  },
  { additionalProperties: false, $id: 'PushDeviceCreate' },
);
export type PushDeviceCreate = Static<typeof PushDeviceCreateSchema>;

/** PATCH /push/devices/{device_sid}: every field optional. */
export const PushDevicePatchSchema = Type.Object(
  {
    application_sid: Type.Optional(deviceWritable.application_sid),
    application_version: Type.Optional(deviceWritable.application_version),
    environment: Type.Optional(deviceWritable.environment),
    os_version: Type.Optional(deviceWritable.os_version),
    token: Type.Optional(deviceWritable.token),
    type: Type.Optional(deviceWritable.type),
    ...deviceReadOnly,
  },
  { additionalProperties: false, $id: 'PushDevicePatch' },
);
export type PushDevicePatch = Static<typeof PushDevicePatchSchema>;
