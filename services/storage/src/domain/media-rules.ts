import {
  ForbiddenError,
  RECORDING_ENDPOINT_TYPES,
  UnprocessableError,
  errorItem,
  type EndpointLookupReply,
} from '@patchbay/contracts';

/**
 * The rules of docs/interface-notes.md, Endpoints and containers, for the media plane, as pure
 * functions of the endpoint and the file (docs/interface-notes.md, Media plane).
 */

/** Which container a recording goes to: the one named, or the partner's default (null). */
export interface RecordingTarget {
  container_sid: string | null;
  chosen_by: 'record_verb' | 'endpoint_property' | 'partner_default';
}

/**
 * Conference, FlexML and Voicemail endpoints record; any other type is a 422 naming `endpoint_sid`.
 * The container: the Record verb's `containerSid` (`override`, FlexML only — another type naming one
 * is a 422 naming `container_sid`), else the endpoint's `properties.container_sid`, else the
 * partner's default container (rule 1).
 */
export function recordingTarget(e: EndpointLookupReply, override: string | undefined): RecordingTarget {
  if (!(RECORDING_ENDPOINT_TYPES as readonly string[]).includes(e.type)) {
    throw UnprocessableError.field(
      'endpoint_sid',
      `a ${e.type} endpoint does not record; recordings come from conference, flexml and voicemail endpoints`,
    );
  }
  if (override !== undefined) {
    if (e.type !== 'flexml')
      throw UnprocessableError.field(
        'container_sid',
        "only a FlexML endpoint chooses a container per recording (the Record verb's containerSid)",
      );
    return { container_sid: override, chosen_by: 'record_verb' };
  }
  if (e.container_sid) return { container_sid: e.container_sid, chosen_by: 'endpoint_property' };
  return { container_sid: null, chosen_by: 'partner_default' };
}

/** The file as the playback rules see it. */
export interface PlayableFile {
  partner_sid: string;
  container_sid: string;
  /** Reached through its publish_uri, and published under it (rule 2). */
  published: boolean;
}

export interface PlaybackContext {
  /** How the media server named the file. */
  by: 'file_sid' | 'uri';
  /** The container the endpoint may play from (conference: its own; conference_playback: its conference's). */
  container_sid: string | null;
}

const forbid = (message: string, field: string) =>
  new ForbiddenError({ message: 'Forbidden', errors: [errorItem(message, field)] });

/**
 * Whether endpoint `e` may play `f` (throws a 403 naming the rule otherwise):
 * - FlexML: by publish_uri (Play) a published file; by file_sid (the File noun) a file of its partner.
 * - Voicemail: by publish_uri (its greeting) a published file; not by file_sid.
 * - Conference: files of its own container; Conference Playback: only files of the container of its
 *   `conference_endpoint_sid`'s conference (a published one by uri too).
 * - Any other type plays no stored file.
 */
export function checkPlayback(e: EndpointLookupReply, f: PlayableFile, ctx: PlaybackContext): void {
  const field = ctx.by === 'uri' ? 'uri' : 'file_sid';
  if (ctx.by === 'uri' && !f.published)
    throw forbid('the file is not published (publish must be file_access_name or file_sid) under this uri', 'uri');
  switch (e.type) {
    case 'flexml':
      if (ctx.by === 'file_sid' && f.partner_sid !== e.partner_sid)
        throw forbid('a FlexML endpoint plays by file_sid only files of its own partner', field);
      return;
    case 'voicemail':
      if (ctx.by === 'file_sid')
        throw forbid(
          'a Voicemail endpoint plays a stored file by its publish_uri (its greeting), not by file_sid',
          field,
        );
      return;
    case 'conference':
    case 'conference_playback':
      if (f.partner_sid !== e.partner_sid || f.container_sid !== ctx.container_sid) {
        throw forbid(
          e.type === 'conference'
            ? 'a Conference endpoint plays only files of its own container'
            : "a Conference Playback endpoint plays only files of its conference's container",
          field,
        );
      }
      return;
    default:
      throw forbid(`a ${e.type} endpoint does not play stored files`, 'endpoint_sid');
  }
}

/**
 * How far past `max_duration` a recording may run (seconds): a recorder stops on a packet
 * boundary, and a container's own length rounds, so a 60 s limit may give 60.4 s of audio.
 */
export const RECORDING_LENGTH_TOLERANCE_S = 1;

/**
 * A Voicemail recording longer than its endpoint's `max_duration` (plus the tolerance) is refused
 * whole, a 422 naming `max_duration`: the media server is to stop recording at the limit
 * (docs/interface-notes.md, Media plane). No limit when it is null or 0, or the length is unknown.
 */
export function checkRecordingLength(maxDuration: number | null | undefined, duration: number | null): void {
  if (!maxDuration || duration === null) return;
  if (duration <= maxDuration + RECORDING_LENGTH_TOLERANCE_S) return;
  throw UnprocessableError.field(
    'max_duration',
    `the recording is ${duration.toFixed(1)} s long; the endpoint's max_duration is ${maxDuration} s`,
  );
}
