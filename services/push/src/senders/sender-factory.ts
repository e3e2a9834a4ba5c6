import type { Logger } from '@patchbay/platform';
import { CredentialError, decodeGoogleCredentials, openP12, readP8 } from '../domain/credentials';
import type { Route } from '../domain/send-plan';
import type { OpenedApplication } from '../domain/documents';
import { ApnsSender, type ApnsAuth } from './apns-sender';
import { FcmSender } from './fcm-sender';
import type { SendRunner } from './send-runner';
import { tokenAgent, type FcmTestEndpoint } from './fcm-endpoint';
import { SenderConfigError, type HostPort, type PushSender } from './sender';

/** Builds the provider client of one application and route from its (decrypted) credentials. */
export type SenderFactory = (app: OpenedApplication, route: Route) => PushSender;

/** What the senders are built with: the part of the push settings (config.ts) that concerns providers. */
export interface SenderSettings {
  /** A local stand-in for Google's FCM and token hosts (tests and benchmarks). */
  fcmEndpoint?: FcmTestEndpoint;
  apns: { production?: HostPort; development?: HostPort; ca?: string; insecure: boolean };
  attemptTimeoutMs: number;
  retry: { maxRetries: number; baseMs: number };
}

/**
 * The factory for these settings; senders run their jobs on `runner`. Credentials that do not
 * open throw SenderConfigError.
 */
export function senderFactory(settings: SenderSettings, log: Logger, runner: SendRunner): SenderFactory {
  const common = { attemptTimeoutMs: settings.attemptTimeoutMs, retry: settings.retry };
  const agent = tokenAgent(settings.fcmEndpoint);
  return (app, route) => {
    try {
      if (route === 'fcm') {
        if (!app.google_credentials) throw new SenderConfigError('no google_credentials');
        return new FcmSender({
          ...common,
          applicationSid: app.application_sid,
          serviceAccount: decodeGoogleCredentials(app.google_credentials),
          runner,
          tokenAgent: agent,
          log: log.child({ mod: 'fcm' }),
        });
      }
      const environment = route === 'apns:production' ? 'production' : 'development';
      let auth: ApnsAuth;
      if (app.apns_p12) {
        const opened = openP12(app.apns_p12, app.apns_p12_password ?? '');
        auth = { kind: 'certificate', cert: opened.certPem, key: opened.keyPem };
      } else if (app.apns_p8 && app.apns_key_id && app.apns_team_id) {
        auth = { kind: 'token', key: readP8(app.apns_p8), keyId: app.apns_key_id, teamId: app.apns_team_id };
      } else {
        throw new SenderConfigError('no APNs certificate or token key');
      }
      return new ApnsSender({
        ...common,
        applicationSid: app.application_sid,
        environment,
        auth,
        topic: app.apns_topic || undefined,
        endpoint: settings.apns[environment],
        ca: settings.apns.ca,
        insecure: settings.apns.insecure,
        runner,
        log: log.child({ mod: 'apns' }),
      });
    } catch (err) {
      if (err instanceof CredentialError) throw new SenderConfigError(err.message, { cause: err });
      throw err;
    }
  };
}
