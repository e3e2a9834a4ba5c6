import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PartnerSchema } from './partner';

/**
 * Voice endpoints (docs/interface-notes.md, Voice endpoints). Output schemas describe what the API
 * returns; input schemas what a create (POST), update (PATCH) and replace (PUT) body may hold.
 * Read-only fields are accepted in bodies and ignored (docs/interface-notes.md, Requests and
 * responses); unknown fields are a 400.
 */

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
/** One of `values` (a JSON Schema string enum, typed as their union). */
const Literals = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });
/** A read-only field sent in a body: any value, ignored. */
const Ignored = () => Type.Optional(Type.Unknown());

export const ENDPOINT_TYPES = [
  'conference',
  'conference_playback',
  'flexml',
  'mediator',
  'voicemail',
  'third_party',
  'system_gateway',
] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
/** Hosted application types: generated read-only properties, no addresses, `voip_token` null. */
export const HOSTED_ENDPOINT_TYPES = ['conference', 'conference_playback', 'flexml', 'mediator', 'voicemail'] as const;
export type HostedEndpointType = (typeof HOSTED_ENDPOINT_TYPES)[number];
export const EndpointTypeSchema = Literals(ENDPOINT_TYPES);

export const ADDRESS_DIRECTIONS = ['inbound', 'outbound', 'any'] as const;
export const ADDRESS_TRANSPORTS = ['udp', 'tcp', 'tls'] as const;

const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const ShortText = Type.String({ maxLength: 256 });

/** An address as returned: every field present (null when unset). */
export const EndpointAddressSchema = Type.Object(
  {
    direction: Literals(ADDRESS_DIRECTIONS),
    dst_port: Nullable(Port),
    ip: Type.String(),
    location_sid: Nullable(Type.String()),
    port: Port,
    priority: Type.Integer({ minimum: 0 }),
    sip_password: Nullable(Type.String()),
    sip_username: Nullable(Type.String()),
    srtp: Type.Boolean(),
    subnet_mask: Type.Integer({ minimum: 0, maximum: 32 }),
    transport: Literals(ADDRESS_TRANSPORTS),
  },
  { additionalProperties: false, $id: 'EndpointAddress' },
);
export type EndpointAddress = Static<typeof EndpointAddressSchema>;

/** An address in a body: `ip` required, the rest take their defaults (port 5060, priority 0, …). */
export const EndpointAddressInputSchema = Type.Object(
  {
    direction: Type.Optional(Literals(ADDRESS_DIRECTIONS)),
    dst_port: Type.Optional(Nullable(Port)),
    ip: Type.String({ minLength: 1, maxLength: 253 }),
    location_sid: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    port: Type.Optional(Port),
    priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    sip_password: Type.Optional(Nullable(ShortText)),
    sip_username: Type.Optional(Nullable(ShortText)),
    srtp: Type.Optional(Type.Boolean()),
    subnet_mask: Type.Optional(Type.Integer({ minimum: 0, maximum: 32 })),
    transport: Type.Optional(Literals(ADDRESS_TRANSPORTS)),
  },
  { additionalProperties: false, $id: 'EndpointAddressInput' },
);
export type EndpointAddressInput = Static<typeof EndpointAddressInputSchema>;

const AttributeValue = Type.Optional(Nullable(Type.String({ maxLength: 1024 })));
/** Custom key-value data; every key is accepted on create and update, only the keys set are returned. */
export const EndpointAttributesSchema = Type.Object(
  {
    account_sid: AttributeValue,
    api_url: AttributeValue,
    did_group_id: AttributeValue,
    key: AttributeValue,
    subscriber_sid: AttributeValue,
    value: AttributeValue,
  },
  { additionalProperties: false, $id: 'EndpointAttributes' },
);
export type EndpointAttributes = Static<typeof EndpointAttributesSchema>;

export const CALLBACK_METHODS = ['POST', 'GET'] as const;

/**
 * Properties as returned. Which keys an endpoint has depends on its type (every applicable key is
 * present, null when unset); `third_party` and `system_gateway` have none.
 */
export const EndpointPropertiesSchema = Type.Object(
  {
    account_sid: Type.Optional(Type.String()),
    api_url: Type.Optional(Type.String()),
    callback_method: Type.Optional(Literals(CALLBACK_METHODS)),
    callback_url: Type.Optional(Nullable(Type.String())),
    conference_endpoint_sid: Type.Optional(Nullable(Type.String())),
    container_sid: Type.Optional(Nullable(Type.String())),
    greeting: Type.Optional(Nullable(Type.String())),
    login: Type.Optional(Type.String()),
    max_duration: Type.Optional(Nullable(Type.Number())),
    password: Type.Optional(Type.String()),
    subscriber_sid: Type.Optional(Type.String()),
  },
  { additionalProperties: false, $id: 'EndpointProperties' },
);
export type EndpointProperties = Static<typeof EndpointPropertiesSchema>;

/** Properties in a body: the writable ones; the generated read-only ones are ignored. */
export const EndpointPropertiesInputSchema = Type.Object(
  {
    account_sid: Ignored(),
    api_url: Ignored(),
    callback_method: Type.Optional(Literals(CALLBACK_METHODS)),
    callback_url: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }))),
    conference_endpoint_sid: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    container_sid: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    greeting: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
    login: Ignored(),
    max_duration: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 86400 }))),
    password: Ignored(),
    subscriber_sid: Ignored(),
  },
  { additionalProperties: false, $id: 'EndpointPropertiesInput' },
);
export type EndpointPropertiesInput = Static<typeof EndpointPropertiesInputSchema>;

/** Transformation rules: their fields are not shown by the interface, so any object is kept as given. */
export const EndpointTransformationSchema = Type.Record(Type.String(), Type.Unknown());

/** An endpoint as returned (`partner` only with `with_related=true`). */
export const EndpointSchema = Type.Object(
  {
    addresses: Type.Array(EndpointAddressSchema),
    attributes: EndpointAttributesSchema,
    auth_required: Type.Boolean(),
    capacity: Type.Integer({ minimum: 0 }),
    cps_limit: Nullable(Type.Integer({ minimum: 0 })),
    endpoint_sid: Type.String({ format: 'uuid' }),
    name: Type.String(),
    out_sip_password: Nullable(Type.String()),
    out_sip_username: Nullable(Type.String()),
    partner: Type.Optional(PartnerSchema),
    partner_sid: Type.String({ format: 'uuid' }),
    properties: EndpointPropertiesSchema,
    transformations: Type.Array(EndpointTransformationSchema),
    type: EndpointTypeSchema,
    voip_token: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'Endpoint' },
);
export type Endpoint = Static<typeof EndpointSchema>;

/** The fields a client writes. */
const writable = {
  addresses: Type.Array(EndpointAddressInputSchema, { maxItems: 64 }),
  attributes: EndpointAttributesSchema,
  auth_required: Type.Boolean(),
  capacity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  name: ShortText,
  out_sip_password: Nullable(ShortText),
  out_sip_username: Nullable(ShortText),
  properties: EndpointPropertiesInputSchema,
  transformations: Type.Array(EndpointTransformationSchema, { maxItems: 64 }),
  type: EndpointTypeSchema,
};
/** Read-only fields a client may echo back (e.g. a GET result sent to PUT): ignored. */
const readOnly = {
  cps_limit: Ignored(),
  endpoint_sid: Ignored(),
  partner: Ignored(),
  partner_sid: Ignored(),
  voip_token: Ignored(),
};

const opt = <T extends TSchema>(s: T) => Type.Optional(s);

/** POST /endpoints: `type` required, every other field optional. */
export const EndpointCreateSchema = Type.Object(
  {
    addresses: opt(writable.addresses),
    attributes: opt(writable.attributes),
    auth_required: opt(writable.auth_required),
    capacity: opt(writable.capacity),
    name: opt(writable.name),
    out_sip_password: opt(writable.out_sip_password),
    out_sip_username: opt(writable.out_sip_username),
    properties: opt(writable.properties),
    transformations: opt(writable.transformations),
    type: writable.type,
    ...readOnly,
  },
  { additionalProperties: false, $id: 'EndpointCreate' },
);
export type EndpointCreate = Static<typeof EndpointCreateSchema>;

/** PATCH /endpoints/{sid}: only the fields given change. */
export const EndpointUpdateSchema = Type.Object(
  {
    addresses: opt(writable.addresses),
    attributes: opt(writable.attributes),
    auth_required: opt(writable.auth_required),
    capacity: opt(writable.capacity),
    name: opt(writable.name),
    out_sip_password: opt(writable.out_sip_password),
    out_sip_username: opt(writable.out_sip_username),
    properties: opt(writable.properties),
    transformations: opt(writable.transformations),
    type: opt(writable.type),
    ...readOnly,
  },
  { additionalProperties: false, $id: 'EndpointUpdate' },
);
export type EndpointUpdate = Static<typeof EndpointUpdateSchema>;

/** PUT /endpoints/{sid}: the whole object, every writable field present. */
export const EndpointReplaceSchema = Type.Object(
  { ...writable, ...readOnly },
  { additionalProperties: false, $id: 'EndpointReplace' },
);
export type EndpointReplace = Static<typeof EndpointReplaceSchema>;
