import { Subjects as S } from '@patchbay/contracts';
import type { RouteDef } from './route-def';

const CREATE = ['push.manage', 'push.create'];
const READ = ['push.manage', 'push.read'];
const UPDATE = ['push.manage', 'push.update'];
const DELETE = ['push.manage', 'push.delete'];

/** Push applications, devices and sending (reference-facts "Push"; sending needs a create scope). */
export const PUSH_ROUTES: RouteDef[] = [
  { method: 'post', path: '/push/applications', subject: S.push.applicationCreate, scopes: CREATE },
  { method: 'get', path: '/push/applications', subject: S.push.applicationList, scopes: READ },
  { method: 'get', path: '/push/applications/:application_sid', subject: S.push.applicationGet, scopes: READ },
  { method: 'patch', path: '/push/applications/:application_sid', subject: S.push.applicationUpdate, scopes: UPDATE },
  { method: 'put', path: '/push/applications/:application_sid', subject: S.push.applicationReplace, scopes: UPDATE },
  { method: 'delete', path: '/push/applications/:application_sid', subject: S.push.applicationDelete, scopes: DELETE },
  { method: 'post', path: '/push/devices', subject: S.push.deviceCreate, scopes: CREATE },
  { method: 'get', path: '/push/devices', subject: S.push.deviceList, scopes: READ },
  { method: 'get', path: '/push/devices/:device_sid', subject: S.push.deviceGet, scopes: READ },
  { method: 'patch', path: '/push/devices/:device_sid', subject: S.push.deviceUpdate, scopes: UPDATE },
  { method: 'put', path: '/push/devices/:device_sid', subject: S.push.deviceReplace, scopes: UPDATE },
  { method: 'delete', path: '/push/devices/:device_sid', subject: S.push.deviceDelete, scopes: DELETE },
  { method: 'post', path: '/push/notifications', subject: S.push.notificationSend, scopes: CREATE },
];
