import { Subjects as S } from '@patchbay/contracts';
import type { RouteDef } from './route-def';

const CREATE = ['endpoints.manage', 'endpoints.create'];
const READ = ['endpoints.manage', 'endpoints.read'];
const UPDATE = ['endpoints.manage', 'endpoints.update'];
const DELETE = ['endpoints.manage', 'endpoints.delete'];

/**
 * Voice endpoints (interface.md "Voice endpoints", scopes of "Authentication"). The extra scope
 * `endpoints.manage_auth_required` for setting `auth_required` is checked by the endpoint service,
 * which alone knows whether a body changes it.
 */
export const ENDPOINT_ROUTES: RouteDef[] = [
  { method: 'post', path: '/endpoints', subject: S.endpoint.create, scopes: CREATE },
  { method: 'get', path: '/endpoints', subject: S.endpoint.list, scopes: READ },
  { method: 'get', path: '/endpoints/:endpoint_sid', subject: S.endpoint.get, scopes: READ },
  { method: 'patch', path: '/endpoints/:endpoint_sid', subject: S.endpoint.update, scopes: UPDATE },
  { method: 'put', path: '/endpoints/:endpoint_sid', subject: S.endpoint.replace, scopes: UPDATE },
  { method: 'delete', path: '/endpoints/:endpoint_sid', subject: S.endpoint.delete, scopes: DELETE },
];
