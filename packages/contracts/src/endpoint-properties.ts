import type { EndpointType } from './schemas/endpoint';

/**
 * Which properties a client writes on each endpoint type (docs/interface-notes.md, Voice endpoints):
 * the one table the endpoint service enforces and the console's forms follow. No runtime imports,
 * so the console can bundle this file alone.
 */

/** Every writable property, alphabetical (the order a 422 lists inapplicable ones in). */
export const ALL_WRITABLE_PROPERTIES = [
  'callback_method',
  'callback_url',
  'conference_endpoint_sid',
  'container_sid',
  'greeting',
  'max_duration',
] as const;
export type WritableProperty = (typeof ALL_WRITABLE_PROPERTIES)[number];

/** The writable properties each type has (create, update), in the order a form shows them. */
export const WRITABLE_PROPERTIES: Readonly<Record<EndpointType, readonly WritableProperty[]>> = {
  conference: ['container_sid'],
  conference_playback: ['conference_endpoint_sid'],
  flexml: ['container_sid'],
  mediator: [],
  voicemail: ['container_sid', 'callback_url', 'callback_method', 'greeting', 'max_duration'],
  third_party: [],
  system_gateway: [],
};
