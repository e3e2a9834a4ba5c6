import type { Schemas } from '@patchbay/client';

export type EndpointType = Schemas['Endpoint']['type'];
import { WRITABLE_PROPERTIES, type WritableProperty } from '@patchbay/contracts/src/endpoint-properties';

export type { WritableProperty };

/** The types a partner may create (the System Gateway comes with the partner). */
export const CREATABLE: readonly EndpointType[] = [
  'third_party',
  'flexml',
  'conference',
  'conference_playback',
  'mediator',
  'voicemail',
];

/** The writable properties of each type (the endpoint service's own table). */
export const PROPERTIES = WRITABLE_PROPERTIES;

/** Whether the type has network addresses (only third_party: hosted applications have none). */
export const hasAddresses = (type: EndpointType) => type === 'third_party';

/**
 * What may change after creation (docs/interface-notes.md, Voice endpoints): hosted types only
 * `name` and `capacity`, Voicemail also its properties; third_party everything but its type; the
 * System Gateway nothing.
 */
export function editable(type: EndpointType): {
  top: readonly string[];
  properties: readonly WritableProperty[];
  addresses: boolean;
} {
  if (type === 'system_gateway') return { top: [], properties: [], addresses: false };
  if (type === 'third_party')
    return { top: ['name', 'capacity', 'out_sip_username', 'out_sip_password'], properties: [], addresses: true };
  return { top: ['name', 'capacity'], properties: type === 'voicemail' ? PROPERTIES.voicemail : [], addresses: false };
}
