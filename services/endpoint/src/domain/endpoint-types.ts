import {
  HOSTED_ENDPOINT_TYPES,
  WRITABLE_PROPERTIES,
  type EndpointProperties,
  type EndpointType,
  type HostedEndpointType,
  type WritableProperty,
} from '@patchbay/contracts';

/**
 * What each endpoint type is (docs/interface-notes.md, Voice endpoints): which properties it has,
 * which of them a client writes, and which fields may still change after creation.
 */

export type GeneratedProperty = 'account_sid' | 'api_url' | 'login' | 'password' | 'subscriber_sid';

export function isHosted(type: EndpointType): type is HostedEndpointType {
  return (HOSTED_ENDPOINT_TYPES as readonly string[]).includes(type);
}

/** The generated, read-only properties each type has. */
export function generatedProperties(type: EndpointType): readonly GeneratedProperty[] {
  if (!isHosted(type)) return [];
  return type === 'conference'
    ? ['account_sid', 'api_url', 'login', 'password', 'subscriber_sid']
    : ['account_sid', 'api_url', 'login', 'password'];
}

/** Defaults of the writable properties (callback_method POST, the rest null). */
export const PROPERTY_DEFAULTS: Readonly<Record<WritableProperty, EndpointProperties[WritableProperty]>> = {
  callback_method: 'POST',
  callback_url: null,
  conference_endpoint_sid: null,
  container_sid: null,
  greeting: null,
  max_duration: null,
};

/** Path segment of each hosted application's API: `api_url` ends `/<segment>/v1`. */
export const HOSTED_API_SEGMENT: Readonly<Record<HostedEndpointType, string>> = {
  conference: 'conference',
  conference_playback: 'conference_playback',
  flexml: 'flexml',
  mediator: 'mediator',
  voicemail: 'voicemail',
};

const NAME_AND_CAPACITY = ['name', 'capacity'];

/**
 * Whether a changed field (a top-level name, `properties.<key>` or `attributes.<key>`) may change
 * after creation. Hosted types allow only `name` and `capacity`, Voicemail also its writable
 * properties; third_party allows everything but `type`; a System Gateway nothing.
 */
export function changeableAfterCreation(type: EndpointType, path: string): boolean {
  if (path === 'type') return false;
  switch (type) {
    case 'third_party':
      return true;
    case 'system_gateway':
      return false;
    case 'voicemail':
      return NAME_AND_CAPACITY.includes(path) || WRITABLE_PROPERTIES.voicemail.some((p) => path === `properties.${p}`);
    default:
      return NAME_AND_CAPACITY.includes(path);
  }
}
