import type { ErrorItem } from '@patchbay/contracts';
import { callbackUrlProblem as urlProblem } from '@patchbay/platform';

/**
 * Checks a Voicemail `callback_url` when it is set (endpoint create or update): the platform's check
 * (callbacks/callback-url.ts), naming `properties.callback_url`. Null, or the problem to answer with a 422.
 */
export function callbackUrlProblem(value: string, allowPrivate: boolean): Promise<ErrorItem | null> {
  return urlProblem(value, allowPrivate, 'properties.callback_url');
}
