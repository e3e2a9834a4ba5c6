import { CallUsageSchema, MessageUsageSchema, UsageQuerySchema, Subjects } from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';

const USAGE =
  'Totals per `hour`, `day` or `month` (`group_by`, in the time zone `tz`, UTC by default) of the records ' +
  'the `filter` (the list grammar) selects, computed by the store: every bucket of the range is present, an ' +
  'empty one as zeros, in date order. The range is set by the filter on the record date ({date}): `ge`/`gt` ' +
  'start it, `lt`/`le` end it; without a start it is the 30 days before its end, without an end it ends now; ' +
  'at most 400 days. `group_by=day,direction` adds a second key: an item per bucket and value.';

/** Usage of call and message detail records (docs/interface-notes.md, Usage); before `…/:dr_sid`. */
export const RECORD_USAGE_ROUTES: RouteDef[] = [
  {
    method: 'get',
    path: '/calls/call_drs/usage',
    subject: Subjects.records.callUsage,
    scopes: ['calls.manage', 'calls.read'],
    doc: {
      summary: 'Call usage per hour, day or month',
      description: USAGE.replace('{date}', '`date_stop`'),
      query: UsageQuerySchema,
      responses: { 200: CallUsageSchema },
    },
  },
  {
    method: 'get',
    path: '/sms/message_drs/usage',
    subject: Subjects.records.messageUsage,
    scopes: ['sms.manage', 'sms.read'],
    doc: {
      summary: 'Message usage per hour, day or month',
      description: USAGE.replace('{date}', '`date_insert`'),
      query: UsageQuerySchema,
      responses: { 200: MessageUsageSchema },
    },
  },
];
