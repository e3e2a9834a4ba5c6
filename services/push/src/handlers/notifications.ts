import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import type { PushContext } from '../context';
import { sendNotification } from '../operations/notifications';

/** `POST /push/notifications`: a result for every recipient. */
export function notificationHandlers(ctx: PushContext) {
  return {
    [Subjects.push.notificationSend]: (req: GatewayRequest) => sendNotification(ctx, req),
  };
}
