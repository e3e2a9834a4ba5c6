import { Subjects } from '@patchbay/contracts';
import { Counter, type ServiceDeps } from '@patchbay/platform';

type Registry = ServiceDeps['metrics'];

type Handlers = Record<string, (payload: unknown, ...rest: never[]) => Promise<unknown>>;

/**
 * Push sends by result, for operators: every recipient of every `POST /push/notifications` is
 * counted under its result (`success`, `not_found`, `provider_error`, …), read from the summary the
 * send handler returns. A rising `provider_error` share means a provider or its credentials are
 * failing. Wraps the notification handlers without changing what they return.
 */
export function countPushResults<H extends Handlers>(registry: Registry, handlers: H): H {
  const results = new Counter({ name: 'push_recipient_results_total', help: 'Push notification recipients by result', labelNames: ['result'], registers: [registry] });
  const sends = new Counter({ name: 'push_sends_total', help: 'Push notification requests handled', registers: [registry] });
  const send = handlers[Subjects.push.notificationSend];
  if (!send) return handlers;
  const counted = async (payload: unknown, ...rest: never[]) => {
    const summary = await send(payload, ...rest);
    sends.inc();
    const per = (summary as { results?: Record<string, string> } | undefined)?.results ?? {};
    for (const result of Object.values(per)) results.inc({ result });
    return summary;
  };
  return { ...handlers, [Subjects.push.notificationSend]: counted };
}
