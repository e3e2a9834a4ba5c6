import { Type } from '@sinclair/typebox';
import { GatewayRequestSchema } from '../gateway-request';
import { AnyListEnvelopeSchema } from '../schemas/envelope';
import { PushApplicationSchema } from '../schemas/push-application';
import { PushDeviceSchema } from '../schemas/push-device';
import { PushSendResultSchema } from '../schemas/push-notification';
import { Subjects } from '../subjects';
import type { RequestSpec } from './message-spec';

/** The push service's bus messages: every one is an API call the gateway forwards. */
export const PushRequests = {
  [Subjects.push.applicationCreate]: { request: GatewayRequestSchema, reply: PushApplicationSchema },
  [Subjects.push.applicationList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.push.applicationGet]: { request: GatewayRequestSchema, reply: Type.Partial(PushApplicationSchema) },
  [Subjects.push.applicationUpdate]: { request: GatewayRequestSchema, reply: PushApplicationSchema },
  [Subjects.push.applicationReplace]: { request: GatewayRequestSchema, reply: PushApplicationSchema },
  [Subjects.push.applicationDelete]: { request: GatewayRequestSchema, reply: Type.Null() },
  [Subjects.push.deviceCreate]: { request: GatewayRequestSchema, reply: PushDeviceSchema },
  [Subjects.push.deviceList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.push.deviceGet]: { request: GatewayRequestSchema, reply: Type.Partial(PushDeviceSchema) },
  [Subjects.push.deviceUpdate]: { request: GatewayRequestSchema, reply: PushDeviceSchema },
  [Subjects.push.deviceReplace]: { request: GatewayRequestSchema, reply: PushDeviceSchema },
  [Subjects.push.deviceDelete]: { request: GatewayRequestSchema, reply: Type.Null() },
  [Subjects.push.notificationSend]: { request: GatewayRequestSchema, reply: PushSendResultSchema },
} as const satisfies Record<(typeof Subjects.push)[keyof typeof Subjects.push], RequestSpec>;
