import type { Static } from '@sinclair/typebox';
import { Queues, Subjects, TranscoderEvents } from '@patchbay/contracts';
import { checkedEvent, type Logger, type Subscription } from '@patchbay/platform';
import type { StorageContext } from '../context';
import { recordTranscodingFailure, recordTranscodingProgress, swapInTranscodedData } from '../operations/transcoding';

/**
 * The transcoder's reports of upload-time jobs (durable consumer `storage`, each event checked:
 * messages/transcoder.ts), each handed to its operation (operations/transcoding.ts).
 */
export async function subscribeTranscodingEvents(ctx: StorageContext): Promise<Subscription[]> {
  // Each handler logs under the request ID the upload had (carried by the job and its events).
  const on = <S extends keyof typeof TranscoderEvents>(
    subject: S,
    handle: (event: Static<(typeof TranscoderEvents)[S]['payload']>, log: Logger) => Promise<void>,
  ) =>
    ctx.bus.subscribe(
      subject,
      Queues.storage,
      checkedEvent(subject, TranscoderEvents[subject].payload, ctx.log, (event, mc) =>
        handle(event, mc.requestId ? ctx.log.child({ requestId: mc.requestId }) : ctx.log),
      ),
    );
  return Promise.all([
    on(Subjects.events.fileTranscodingProgress, (event) => recordTranscodingProgress(ctx, event)),
    on(Subjects.events.fileTranscodingFailed, (event, log) => recordTranscodingFailure(ctx, event, log)),
    on(Subjects.events.fileTranscodingDone, (event, log) => swapInTranscodedData(ctx, event, log)),
  ]);
}
