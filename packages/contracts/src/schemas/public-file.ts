import { Type, type Static } from '@sinclair/typebox';
import { BITRATES, TARGET_FORMATS } from './file';
import { describeMediaMimes } from '../media-formats';

/** `cache_control` values the public file server passes on (docs/interface-notes.md, File server and ranges). */
export const CACHE_CONTROL_PATTERN =
  '^(max-age=[0-9]+|max-stale|max-stale=[0-9]+|min-fresh=[0-9]+|no-cache|no-store|no-transform|only-if-cached)$';
/** `cache_headers`: `no`, or a number of seconds. */
export const CACHE_HEADERS_PATTERN = '^(no|[0-9]{1,10})$';

/**
 * The query parameters of the public file server, `GET {storage_url}/f/<id>`
 * (docs/interface-notes.md, File server and ranges): what the OpenAPI document shows. The file server reads them itself
 * (file-server/src/domain/download-options.ts), with a 400 naming each bad one.
 */
export const PublicFileQuerySchema = Type.Object(
  {
    disposition: Type.Optional(
      Type.Union([Type.Literal('inline'), Type.Literal('attachment')], {
        default: 'inline',
        description: 'The disposition type of Content-Disposition.',
      }),
    ),
    disposition_name: Type.Optional(
      Type.String({
        minLength: 1,
        description: "The file name in Content-Disposition (`<type>; filename*=UTF-8''<name>`).",
      }),
    ),
    content_type: Type.Optional(
      Type.Union(
        TARGET_FORMATS.map((f) => Type.Literal(f)),
        { description: `Sets Content-Type: ${describeMediaMimes()}.` },
      ),
    ),
    cache_headers: Type.Optional(
      Type.String({
        pattern: CACHE_HEADERS_PATTERN,
        description: '`no` gives `Cache-Control: no-cache`; N gives `public, max-age=N`. Wins over cache_control.',
      }),
    ),
    cache_control: Type.Optional(
      Type.String({
        pattern: CACHE_CONTROL_PATTERN,
        description: 'Sets Cache-Control to this directive. Without cache parameters the header is `None`.',
      }),
    ),
    f: Type.Optional(
      Type.Union(
        TARGET_FORMATS.map((f) => Type.Literal(f)),
        {
          description:
            'Transcode to this format. Without a cached copy the whole result ' +
            'comes with 200, even for a Range. Without a usable ffmpeg: 503 naming ' +
            'what is missing.',
        },
      ),
    ),
    br: Type.Optional(
      Type.Union(
        BITRATES.map((b) => Type.Literal(b)),
        { description: "Bitrate in kbit/s for lossy targets; ignored unless lower than the stored file's." },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PublicFileQuery = Static<typeof PublicFileQuerySchema>;
