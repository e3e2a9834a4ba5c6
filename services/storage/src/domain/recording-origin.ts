/**
 * Where a recording came from (media plane): what its commit and its Voicemail callback need besides the upload fields.
 */
export interface RecordingOrigin {
  endpoint_sid: string;
  endpoint_type: string;
  call_sid: string | null;
  /** The endpoint's `max_duration` when the recording began (seconds; null or absent: no limit). */
  max_duration?: number | null;
}
