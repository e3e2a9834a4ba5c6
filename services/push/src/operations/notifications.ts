import { PushNotificationSchema, compileValidator, type GatewayRequest, type PushResult } from '@patchbay/contracts';
import { toPushMessage, type PushMessage } from '../domain/push-message';
import { planSend, summarize, type SendGroup } from '../domain/send-plan';
import { withTimeout } from '../domain/retry';
import type { ApplicationDoc, DeviceDoc, OpenedApplication } from '../domain/documents';
import { SenderConfigError } from '../senders/sender';
import { inSpan, SpanKind } from '@patchbay/platform';
import type { PushContext } from '../context';

const validateNotification = compileValidator(PushNotificationSchema);
const SID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Credentials that do not open leave their platform without credentials (`no_credentials`), logged. */
function openApplication(ctx: PushContext, doc: ApplicationDoc): OpenedApplication {
  const { app, unreadable } = ctx.credentials.open(doc);
  for (const u of unreadable) {
    ctx.log.error(
      {
        application_sid: doc.application_sid,
        partner_sid: doc.partner_sid,
        field: u.field,
        kid: u.kid,
        reason: u.reason,
      },
      'push credential cannot be decrypted: its platform has no credentials',
    );
  }
  return app;
}

/** One group through its sender, as a span of its own: the sender's part of a push trace. */
function sendGroup(
  ctx: PushContext,
  app: OpenedApplication,
  group: SendGroup<DeviceDoc>,
  message: PushMessage,
  deadline: number,
): Promise<Map<string, PushResult>> {
  const attributes = { 'patchbay.push.route': group.route, 'patchbay.push.devices': group.devices.length };
  return inSpan(`push send ${group.route}`, { kind: SpanKind.CLIENT, attributes }, async () => {
    const { log, pool } = ctx;
    try {
      const sender = pool.get(app, group.route);
      const results = await withTimeout(
        sender.send(message, group.devices, deadline),
        deadline - Date.now(),
        () => new Map<string, PushResult>(),
      );
      const failed = group.devices.filter((d) => results.get(d.device_sid) !== 'success').length;
      log.info(
        { application_sid: app.application_sid, route: group.route, devices: group.devices.length, failed },
        'push sent',
      );
      return results;
    } catch (err) {
      if (err instanceof SenderConfigError)
        log.error(
          { application_sid: app.application_sid, route: group.route, reason: err.message },
          'application credentials do not work',
        );
      else log.error({ application_sid: app.application_sid, route: group.route, err }, 'push send failed');
      return new Map();
    }
  });
}

/**
 * `POST /push/notifications`: a result for every recipient. Groups go out concurrently, each
 * through its application's own client; the whole send is bounded by the send deadline, after
 * which unanswered recipients are `provider_error` — one slow provider fails only its own
 * recipients, never the others of the same request or of other partners.
 */
export async function sendNotification(ctx: PushContext, req: GatewayRequest) {
  const { repo, settings } = ctx;
  const deadline = Date.now() + settings.sendDeadlineMs;
  const notification = validateNotification(req.body ?? {});
  const message = toPushMessage(notification);
  const partnerSid = req.principal.partner_sid;
  const sids = [...new Set(notification.recipients)].filter((s) => SID.test(s));
  // By SID alone (its unique index), then only the caller's: with partner_sid in the filter, the
  // embedded store's SQLite walks the partner's whole partner_sid index instead (it guesses an
  // equality there matches fewer rows than 100 SIDs), computing each device's key from its JSON.
  const found = sids.length > 0 ? await repo.devices.find({ device_sid: { $in: sids } }) : [];
  const devices = found.filter((d) => d.partner_sid === partnerSid);
  const appSids = [...new Set(devices.map((d) => d.application_sid))];
  const apps =
    appSids.length > 0
      ? await repo.applications.find({ partner_sid: partnerSid, application_sid: { $in: appSids } })
      : [];
  const appBySid = new Map(apps.map((a) => [a.application_sid, openApplication(ctx, a)]));
  const { groups, settled } = planSend(notification.recipients, devices, appBySid);
  const results = new Map<string, PushResult>(settled);
  await Promise.all(
    groups.map(async (group) => {
      // planSend groups only devices whose application it was given.
      const app = appBySid.get(group.application_sid);
      if (!app) throw new Error(`no application ${group.application_sid} for a planned group`);
      const sent = await sendGroup(ctx, app, group, message, deadline);
      for (const d of group.devices) results.set(d.device_sid, sent.get(d.device_sid) ?? 'provider_error');
    }),
  );
  // Results in the order of the request (the gateway sorts keys anyway; this keeps logs readable).
  const ordered = new Map<string, PushResult>();
  for (const sid of notification.recipients) ordered.set(sid, results.get(sid) ?? 'not_found');
  return summarize(ordered);
}
