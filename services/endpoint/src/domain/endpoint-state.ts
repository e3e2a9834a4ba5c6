import type {
  EndpointAddress,
  EndpointAttributes,
  EndpointCreate,
  EndpointProperties,
  EndpointPropertiesInput,
  EndpointReplace,
  EndpointType,
  EndpointUpdate,
} from '@patchbay/contracts';
import { ALL_WRITABLE_PROPERTIES, WRITABLE_PROPERTIES, type WritableProperty } from '@patchbay/contracts';
import { normalizeAddress } from './addresses';
import { PROPERTY_DEFAULTS, generatedProperties, type GeneratedProperty } from './endpoint-types';

/** The public, client-shaped part of an endpoint: what the rules look at and the API returns. */
export interface EndpointState {
  type: EndpointType;
  name: string;
  capacity: number;
  cps_limit: number | null;
  auth_required: boolean;
  addresses: EndpointAddress[];
  attributes: EndpointAttributes;
  properties: EndpointProperties;
  transformations: Array<Record<string, unknown>>;
  out_sip_username: string | null;
  out_sip_password: string | null;
  voip_token: string | null;
}

/** Values generated once, at creation, for the read-only fields. */
export interface GeneratedValues {
  voipToken: string;
  properties: Record<GeneratedProperty, string>;
}

/** Defaults of the Endpoint table (docs/interface-notes.md, Voice endpoints). */
const DEFAULT_NAME = 'N/A';

/** The endpoint a create body describes, every default applied and the read-only values generated. */
export function buildEndpoint(input: EndpointCreate, generated: GeneratedValues): EndpointState {
  const type = input.type;
  return {
    type,
    name: input.name ?? DEFAULT_NAME,
    capacity: input.capacity ?? 0,
    cps_limit: null,
    auth_required: input.auth_required ?? true,
    addresses: (input.addresses ?? []).map(normalizeAddress),
    attributes: compact(input.attributes ?? {}),
    properties: buildProperties(type, {}, input.properties ?? {}, generated.properties),
    transformations: input.transformations ?? [],
    out_sip_username: input.out_sip_username ?? null,
    out_sip_password: input.out_sip_password ?? null,
    voip_token: type === 'third_party' ? generated.voipToken : null,
  };
}

/**
 * The endpoint after a PATCH or PUT body. Fields not given stay; arrays given replace the old
 * ones whole; `attributes` and `properties` merge key by key unless `replaceNested` (PUT, or PATCH
 * with `nested_objects=replace`), which replaces them whole. Generated properties never change, and
 * properties that do not apply to the type are left out (the rules report them).
 */
export function applyUpdate(
  current: EndpointState,
  input: EndpointUpdate | EndpointReplace,
  replaceNested: boolean,
): EndpointState {
  const next: EndpointState = { ...current };
  if (input.type !== undefined) next.type = input.type;
  if (input.name !== undefined) next.name = input.name;
  if (input.capacity !== undefined) next.capacity = input.capacity;
  if (input.auth_required !== undefined) next.auth_required = input.auth_required;
  if (input.out_sip_username !== undefined) next.out_sip_username = input.out_sip_username;
  if (input.out_sip_password !== undefined) next.out_sip_password = input.out_sip_password;
  if (input.addresses !== undefined) next.addresses = input.addresses.map(normalizeAddress);
  if (input.transformations !== undefined) next.transformations = input.transformations;
  if (input.attributes !== undefined)
    next.attributes = compact(replaceNested ? input.attributes : { ...current.attributes, ...input.attributes });
  if (input.properties !== undefined) {
    const base = replaceNested ? {} : current.properties;
    const generated: Partial<Record<GeneratedProperty, string>> = {};
    for (const k of generatedProperties(current.type)) generated[k] = current.properties[k];
    next.properties = buildProperties(current.type, base, input.properties, generated);
  }
  return next;
}

/** Writable properties given that the type does not have (each one is a 422). */
export function inapplicableProperties(
  type: EndpointType,
  given: EndpointPropertiesInput | undefined,
): WritableProperty[] {
  if (!given) return [];
  const allowed = WRITABLE_PROPERTIES[type];
  return ALL_WRITABLE_PROPERTIES.filter((k) => given[k] !== undefined && !allowed.includes(k));
}

/**
 * Properties of `type`: its generated ones, then each writable one from `given`, else `base`, else
 * its default. Read-only keys in `given` are ignored; keys the type lacks are dropped.
 */
function buildProperties(
  type: EndpointType,
  base: EndpointProperties,
  given: EndpointPropertiesInput,
  generated: Partial<Record<GeneratedProperty, string>>,
): EndpointProperties {
  const out: Record<string, unknown> = {};
  for (const k of generatedProperties(type)) out[k] = generated[k];
  for (const k of WRITABLE_PROPERTIES[type]) {
    // A greeting of "" clears it, as null does (decisions §41): "" is no publish_uri.
    const value = k === 'greeting' && given[k] === '' ? null : given[k];
    out[k] = value !== undefined ? value : base[k] !== undefined ? base[k] : PROPERTY_DEFAULTS[k];
  }
  // why the cast: `out` holds the type's generated and writable properties, each set above.
  return sortKeys(out) as EndpointProperties;
}

/** Drops keys whose value is undefined (absent), keeping explicit nulls; keys in alphabetical order. */
function compact<T extends object>(obj: T): T {
  // why the cast: the same object less its undefined values (absent and undefined read alike).
  return sortKeys(Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined))) as T;
}

function sortKeys(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, obj[k]]),
  );
}
