import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { RecordsContext } from '../context';
import { CALL_USAGE, MESSAGE_USAGE } from '../domain/usage-kinds';
import { recordUsage } from '../operations/usage';

/** `GET /calls/call_drs/usage` and `GET /sms/message_drs/usage`. */
export function usageHandlers(ctx: Pick<RecordsContext, 'repo'>) {
  return {
    [Subjects.records.callUsage]: (req: GatewayRequest) => recordUsage(ctx, 'call_drs', CALL_USAGE, req),
    [Subjects.records.messageUsage]: (req: GatewayRequest) => recordUsage(ctx, 'message_drs', MESSAGE_USAGE, req),
  };
}
