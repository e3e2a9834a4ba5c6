/**
 * Voicemail callbacks are signed as every Patchbay callback is (the platform's callbacks/): HMAC-SHA256 keyed with
 * the Voicemail endpoint's `properties.password` (the partner reads it from the endpoint).
 */
export { SIGNATURE_HEADER, nextAttemptDelayMs, signCallback, verifyCallback } from '@patchbay/platform';
