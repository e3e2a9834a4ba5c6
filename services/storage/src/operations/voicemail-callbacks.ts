import { EndpointClient, type StoredFile, type VoicemailCallbackSchedule } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { RecordingOrigin } from '../domain/recording-origin';
import { errorMessage } from '../error-message';

/**
 * Hands a Voicemail recording's callback to the endpoint service, which owns the endpoint's
 * `callback_url` and delivers it from its own outbox (at least once, retried, across restarts).
 * If the endpoint service does not answer now, the file is marked `callback_pending` and handed
 * over again by the periodic maintenance (retryPendingCallbacks): a stored recording's callback is
 * never lost, and scheduling it twice is harmless (the outbox is keyed by file).
 */
export async function scheduleVoicemailCallback(ctx: StorageContext, r: RecordingOrigin, f: StoredFile): Promise<void> {
  const schedule: VoicemailCallbackSchedule = {
    endpoint_sid: r.endpoint_sid,
    partner_sid: f.partner_sid,
    file_sid: f.file_sid,
    container_sid: f.container_sid,
    publish_uri: f.publish_uri,
    content_duration: f.content_duration,
    file_bytes: f.file_bytes,
    call_sid: r.call_sid,
    date_created: f.date_created,
  };
  if (await handOver(ctx, schedule)) return;
  await ctx.repo.files.updateOne({ file_sid: f.file_sid }, { $set: { callback_pending: schedule } });
  ctx.log.warn(
    { file_sid: f.file_sid, endpoint_sid: r.endpoint_sid },
    'voicemail callback not handed to the endpoint service yet; maintenance will retry',
  );
}

/**
 * Hands over every callback still pending (stopping at the first refusal: the endpoint service is away); returns how
 * many were.
 */
export async function retryPendingCallbacks(ctx: StorageContext): Promise<number> {
  const pending = await ctx.repo.files.find({ callback_pending: { $exists: true } }, { limit: 1000 });
  let done = 0;
  for (const f of pending) {
    const schedule = f.callback_pending;
    if (!schedule) continue;
    if (!(await handOver(ctx, schedule))) break;
    await ctx.repo.files.updateOne({ file_sid: f.file_sid }, { $unset: { callback_pending: '' } });
    done += 1;
  }
  if (done > 0) ctx.log.info({ count: done }, 'pending voicemail callbacks handed to the endpoint service');
  return done;
}

async function handOver(ctx: StorageContext, schedule: VoicemailCallbackSchedule): Promise<boolean> {
  try {
    await new EndpointClient(ctx.bus, { timeoutMs: ctx.busTimeoutMs }).scheduleCallback(schedule);
    return true;
  } catch (err) {
    ctx.log.warn(
      { file_sid: schedule.file_sid, err: errorMessage(err) },
      'endpoint service did not take the voicemail callback',
    );
    return false;
  }
}
