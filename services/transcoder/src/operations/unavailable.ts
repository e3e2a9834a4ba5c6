import { UnavailableError, errorItem } from '@patchbay/contracts';

/** The 503 of a request this transcoder cannot serve: the missing piece, named, on the field that asked. */
export function unavailable(reason: string, field: string | null): UnavailableError {
  return new UnavailableError({ message: `transcoding is unavailable: ${reason}`, errors: [errorItem(reason, field)] });
}
