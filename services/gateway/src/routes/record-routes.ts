import { Subjects as S } from '@patchbay/contracts';
import type { RouteDef } from './route-def';

/**
 * Call and message detail records (reads). Bulk ingest (`POST` on the same paths) streams its body
 * and is mounted apart: see ingest-routes.ts.
 */
export const RECORD_ROUTES: RouteDef[] = [
  { method: 'get', path: '/calls/call_drs', subject: S.records.callList, scopes: ['calls.manage', 'calls.read'] },
  { method: 'get', path: '/calls/call_drs/:dr_sid', subject: S.records.callGet, scopes: ['calls.manage', 'calls.read'] },
  { method: 'get', path: '/sms/message_drs', subject: S.records.messageList, scopes: ['sms.manage', 'sms.read'] },
  { method: 'get', path: '/sms/message_drs/:dr_sid', subject: S.records.messageGet, scopes: ['sms.manage', 'sms.read'] },
];
