import { Type } from '@sinclair/typebox';
import {
  ListEnvelopeSchema,
  PushApplicationSchema,
  PushApplicationWriteSchema,
  PushDeviceCreateSchema,
  PushDevicePatchSchema,
  PushDeviceSchema,
  PushNotificationSchema,
  PushSendResultSchema,
  Subjects,
} from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';
import { WITH_RELATED } from './route-params';

const CREATE = ['push.manage', 'push.create'];
const READ = ['push.manage', 'push.read'];
const UPDATE = ['push.manage', 'push.update'];
const DELETE = ['push.manage', 'push.delete'];

/**
 * `POST /push/devices?reuse=false` always creates; by default a device with the same token, type and environment is
 * returned.
 */
const REUSE = Type.Object({
  reuse: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        'Return the device already registered with the same token, type and environment instead of creating another.',
    }),
  ),
});
const CREDENTIALS =
  'Credentials are write-only: returned as `"********"` when set; ' +
  'sending the mask back keeps the stored value, `null` clears it.';

/** Push applications, devices and sending (docs/interface-notes.md, Push; sending needs a create scope). */
export const PUSH_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/push/applications',
    subject: Subjects.push.applicationCreate,
    scopes: CREATE,
    doc: {
      summary: 'Create a push application',
      description: CREDENTIALS,
      request: PushApplicationWriteSchema,
      responses: { 200: PushApplicationSchema },
    },
  },
  {
    method: 'get',
    path: '/push/applications',
    subject: Subjects.push.applicationList,
    scopes: READ,
    doc: {
      summary: 'List push applications',
      list: 'offset',
      query: WITH_RELATED,
      responses: { 200: ListEnvelopeSchema(PushApplicationSchema) },
    },
  },
  {
    method: 'get',
    path: '/push/applications/:application_sid',
    subject: Subjects.push.applicationGet,
    scopes: READ,
    doc: {
      summary: 'Get a push application',
      fields: true,
      query: WITH_RELATED,
      responses: { 200: PushApplicationSchema },
    },
  },
  {
    method: 'patch',
    path: '/push/applications/:application_sid',
    subject: Subjects.push.applicationUpdate,
    scopes: UPDATE,
    doc: {
      summary: 'Update a push application (only the fields given)',
      description: CREDENTIALS,
      request: PushApplicationWriteSchema,
      responses: { 200: PushApplicationSchema },
    },
  },
  {
    method: 'put',
    path: '/push/applications/:application_sid',
    subject: Subjects.push.applicationReplace,
    scopes: UPDATE,
    doc: {
      summary: 'Replace a push application (omitted fields are reset)',
      description: CREDENTIALS,
      request: PushApplicationWriteSchema,
      responses: { 200: PushApplicationSchema },
    },
  },
  {
    method: 'delete',
    path: '/push/applications/:application_sid',
    subject: Subjects.push.applicationDelete,
    scopes: DELETE,
    doc: { summary: 'Delete a push application and its devices', responses: { 204: null } },
  },
  {
    method: 'post',
    path: '/push/devices',
    subject: Subjects.push.deviceCreate,
    scopes: CREATE,
    doc: {
      summary: 'Register a device',
      request: PushDeviceCreateSchema,
      query: REUSE,
      responses: { 200: PushDeviceSchema },
    },
  },
  {
    method: 'get',
    path: '/push/devices',
    subject: Subjects.push.deviceList,
    scopes: READ,
    doc: {
      summary: 'List devices',
      list: 'offset',
      query: WITH_RELATED,
      responses: { 200: ListEnvelopeSchema(PushDeviceSchema) },
    },
  },
  {
    method: 'get',
    path: '/push/devices/:device_sid',
    subject: Subjects.push.deviceGet,
    scopes: READ,
    doc: { summary: 'Get a device', fields: true, query: WITH_RELATED, responses: { 200: PushDeviceSchema } },
  },
  {
    method: 'patch',
    path: '/push/devices/:device_sid',
    subject: Subjects.push.deviceUpdate,
    scopes: UPDATE,
    doc: {
      summary: 'Update a device (only the fields given)',
      request: PushDevicePatchSchema,
      responses: { 200: PushDeviceSchema },
    },
  },
  {
    method: 'put',
    path: '/push/devices/:device_sid',
    subject: Subjects.push.deviceReplace,
    scopes: UPDATE,
    doc: { summary: 'Replace a device', request: PushDeviceCreateSchema, responses: { 200: PushDeviceSchema } },
  },
  {
    method: 'delete',
    path: '/push/devices/:device_sid',
    subject: Subjects.push.deviceDelete,
    scopes: DELETE,
    doc: { summary: 'Delete a device', responses: { 204: null } },
  },
  {
    method: 'post',
    path: '/push/notifications',
    subject: Subjects.push.notificationSend,
    scopes: CREATE,
    doc: {
      summary: 'Send a notification to devices',
      description:
        'Only `recipients` is required. Each recipient gets a result: ' +
        '`success`, or why not (`not_found`, `unregistered`, `invalid_token`, ' +
        '`no_credentials`, `provider_error`).',
      request: PushNotificationSchema,
      responses: { 200: PushSendResultSchema },
    },
  },
];
