import { sendSignedCallback, type SendOutcome } from '@patchbay/platform';

export type { SendOutcome };

export interface CallbackRequest {
  url: string;
  method: 'POST' | 'GET';
  fields: Record<string, unknown>;
  /** The HMAC key (the Voicemail endpoint's `properties.password`). */
  key: string;
}

/**
 * One attempt at a Voicemail callback (`X-Patchbay-Event: voicemail.recording`): the platform's signed
 * callback, with its outbound-address guard (callbacks/signed-callback.ts).
 */
export async function sendCallback(
  req: CallbackRequest,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendOutcome> {
  const outcome = await sendSignedCallback(
    { ...req, event: 'voicemail.recording', spanName: 'endpoint callback' },
    opts,
  );
  // The Voicemail outbox records the reason only (the receiver's status is in it).
  return outcome.kind === 'failed' ? { kind: 'failed', reason: outcome.reason } : outcome;
}
