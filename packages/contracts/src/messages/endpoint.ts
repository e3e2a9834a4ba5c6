import { Type } from '@sinclair/typebox';
import { GatewayRequestSchema } from '../gateway-request';
import { EndpointSchema } from '../schemas/endpoint';
import { AnyListEnvelopeSchema, ListEnvelopeSchema } from '../schemas/envelope';
import {
  EndpointLookupReplySchema,
  EndpointLookupRequestSchema,
  VoicemailCallbackDeliverySchema,
  VoicemailCallbackScheduleSchema,
} from '../schemas/media';
import { Subjects } from '../subjects';
import type { RequestSpec } from './message-spec';

/**
 * The endpoint service's bus messages: the `/endpoints` calls the gateway forwards, and what the
 * media plane (storage) asks — an endpoint by SID, a Voicemail callback to schedule
 * (clients/endpoint-client.ts). The media-plane shapes live in schemas/media.ts with the rest of
 * the media plane's vocabulary.
 */

export const CallbackScheduledSchema = Type.Object({ scheduled: Type.Boolean() });

/** storage → endpoint: which endpoints of a partner name a container (`properties.container_sid`). */
export const ContainerUsersRequestSchema = Type.Object(
  {
    partner_sid: Type.String({ minLength: 1, maxLength: 64 }),
    container_sid: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
export const ContainerUsersReplySchema = Type.Object({ endpoint_sids: Type.Array(Type.String()) });

export const EndpointRequests = {
  [Subjects.endpoint.create]: { request: GatewayRequestSchema, reply: EndpointSchema },
  [Subjects.endpoint.list]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.endpoint.get]: { request: GatewayRequestSchema, reply: Type.Partial(EndpointSchema) },
  [Subjects.endpoint.update]: { request: GatewayRequestSchema, reply: EndpointSchema },
  [Subjects.endpoint.replace]: { request: GatewayRequestSchema, reply: EndpointSchema },
  [Subjects.endpoint.delete]: { request: GatewayRequestSchema, reply: Type.Null() },
  [Subjects.endpoint.lookup]: { request: EndpointLookupRequestSchema, reply: EndpointLookupReplySchema },
  [Subjects.endpoint.usingContainer]: { request: ContainerUsersRequestSchema, reply: ContainerUsersReplySchema },
  [Subjects.endpoint.callbackSchedule]: { request: VoicemailCallbackScheduleSchema, reply: CallbackScheduledSchema },
  [Subjects.endpoint.callbackList]: {
    request: GatewayRequestSchema,
    reply: ListEnvelopeSchema(VoicemailCallbackDeliverySchema),
  },
} as const satisfies Record<(typeof Subjects.endpoint)[keyof typeof Subjects.endpoint], RequestSpec>;
