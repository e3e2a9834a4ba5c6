import {
  EndpointCreateSchema,
  EndpointReplaceSchema,
  EndpointSchema,
  EndpointUpdateSchema,
  ListEnvelopeSchema,
  VoicemailCallbackDeliverySchema,
  Subjects,
} from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';
import { NESTED_OBJECTS, WITH_RELATED } from './route-params';

const CREATE = ['endpoints.manage', 'endpoints.create'];
const READ = ['endpoints.manage', 'endpoints.read'];
const UPDATE = ['endpoints.manage', 'endpoints.update'];
const DELETE = ['endpoints.manage', 'endpoints.delete'];
const AUTH_REQUIRED =
  'Setting `auth_required` also needs scope ' +
  '`endpoints.manage_auth_required` (else 422); `auth_required=false` on ' +
  'an IP and port another such endpoint uses is a 409.';

/**
 * Voice endpoints (docs/interface-notes.md, Voice endpoints; scopes: Authentication, partners and
 * scopes). The extra scope `endpoints.manage_auth_required` for setting `auth_required` is checked
 * by the endpoint service, which alone knows whether a body changes it.
 */
export const ENDPOINT_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/endpoints',
    subject: Subjects.endpoint.create,
    scopes: CREATE,
    doc: {
      summary: 'Create an endpoint',
      description: AUTH_REQUIRED,
      request: EndpointCreateSchema,
      responses: { 200: EndpointSchema },
    },
  },
  {
    method: 'get',
    path: '/endpoints',
    subject: Subjects.endpoint.list,
    scopes: READ,
    doc: {
      summary: 'List endpoints',
      description: 'Filter example: `addresses.ip eq "1.1.2.13"`.',
      list: 'offset',
      query: WITH_RELATED,
      responses: { 200: ListEnvelopeSchema(EndpointSchema) },
    },
  },
  {
    method: 'get',
    path: '/endpoints/:endpoint_sid',
    subject: Subjects.endpoint.get,
    scopes: READ,
    doc: { summary: 'Get an endpoint', fields: true, query: WITH_RELATED, responses: { 200: EndpointSchema } },
  },
  {
    method: 'get',
    path: '/endpoints/:endpoint_sid/callbacks',
    subject: Subjects.endpoint.callbackList,
    scopes: READ,
    doc: {
      summary: "List a Voicemail endpoint's callback deliveries",
      description:
        'Read-only: each delivery with its `state` (pending, delivered, ' +
        'failed), `attempts`, `last_error` (a refused address, a non-2xx ' +
        'answer, a timeout) and `date_next_attempt`. Filter example: `state eq ' +
        '"failed"`.',
      list: 'offset',
      responses: { 200: ListEnvelopeSchema(VoicemailCallbackDeliverySchema) },
    },
  },
  {
    method: 'patch',
    path: '/endpoints/:endpoint_sid',
    subject: Subjects.endpoint.update,
    scopes: UPDATE,
    doc: {
      summary: 'Update an endpoint (only the fields given)',
      description: AUTH_REQUIRED,
      request: EndpointUpdateSchema,
      query: NESTED_OBJECTS,
      responses: { 200: EndpointSchema },
    },
  },
  {
    method: 'put',
    path: '/endpoints/:endpoint_sid',
    subject: Subjects.endpoint.replace,
    scopes: UPDATE,
    doc: {
      summary: 'Replace an endpoint (every writable field)',
      description: AUTH_REQUIRED,
      request: EndpointReplaceSchema,
      query: NESTED_OBJECTS,
      responses: { 200: EndpointSchema },
    },
  },
  {
    method: 'delete',
    path: '/endpoints/:endpoint_sid',
    subject: Subjects.endpoint.delete,
    scopes: DELETE,
    doc: {
      summary: 'Delete an endpoint',
      description: 'The System Gateway endpoint cannot be deleted (422).',
      responses: { 204: null },
    },
  },
];
