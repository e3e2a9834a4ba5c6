import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import { Counter, type HandlerContext, type ServiceDeps } from '@patchbay/platform';

type Registry = ServiceDeps['metrics'];

/** The send handler: what it returns is the summary of `POST /push/notifications`. */
type SendHandlers = {
  [Subjects.push.notificationSend]: (
    req: GatewayRequest,
    ctx: HandlerContext,
  ) => Promise<{ results: Record<string, string> }>;
};

/**
 * Push sends by result, for operators: every recipient of every `POST /push/notifications` is
 * counted under its result (`success`, `not_found`, `provider_error`, …), read from the summary the
 * send handler returns. A rising `provider_error` share means a provider or its credentials are
 * failing. Wraps the notification handlers without changing what they return.
 */
export function countPushResults<H extends SendHandlers>(registry: Registry, handlers: H): H {
  const results = new Counter({
    name: 'push_recipient_results_total',
    help: 'Push notification recipients by result',
    labelNames: ['result'],
    registers: [registry],
  });
  const sends = new Counter({
    name: 'push_sends_total',
    help: 'Push notification requests handled',
    registers: [registry],
  });
  const send = handlers[Subjects.push.notificationSend];
  const counted = async (req: GatewayRequest, ctx: HandlerContext) => {
    const summary = await send(req, ctx);
    sends.inc();
    for (const result of Object.values(summary.results)) results.inc({ result });
    return summary;
  };
  return { ...handlers, [Subjects.push.notificationSend]: counted };
}
