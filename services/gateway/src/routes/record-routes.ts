import { Subjects as S } from '@patchbay/contracts';
import { ingestRoute } from './ingest-routes';
import type { RouteDef } from './route-def';

/**
 * Call and message detail records: reads, and bulk ingest (`POST` on the same paths, with the
 * create scopes), whose body streams: see ingest-routes.ts.
 */
export const RECORD_ROUTES: RouteDef[] = [
  { method: 'get', path: '/calls/call_drs', subject: S.records.callList, scopes: ['calls.manage', 'calls.read'] },
  { method: 'get', path: '/calls/call_drs/:dr_sid', subject: S.records.callGet, scopes: ['calls.manage', 'calls.read'] },
  { method: 'get', path: '/sms/message_drs', subject: S.records.messageList, scopes: ['sms.manage', 'sms.read'] },
  { method: 'get', path: '/sms/message_drs/:dr_sid', subject: S.records.messageGet, scopes: ['sms.manage', 'sms.read'] },
  { method: 'post', path: '/calls/call_drs', subject: S.records.callIngest, scopes: ['calls.manage', 'calls.create'], body: 'stream', handler: ingestRoute },
  { method: 'post', path: '/sms/message_drs', subject: S.records.messageIngest, scopes: ['sms.manage', 'sms.create'], body: 'stream', handler: ingestRoute },
];
