import { BITRATES, TARGET_FORMATS } from '@patchbay/contracts';
import { errorResponse } from './responses';

/** The `content_type` values of the public file server (interface.md, rule 3). */
const CONTENT_TYPE_VALUES = ['al', 'alaw', 'ul', 'ulaw', 'flac', 'g722', 'mp3', 'mp4', 'ogg', 'wav'];

const q = (name: string, schema: Record<string, unknown>, description: string) => ({ name, in: 'query', description, schema });

const PARAMETERS = [
  { name: 'file_identifier', in: 'path', required: true, description: 'The file\'s `file_sid` or `file_access_name`, as its `publish_uri` has it.', schema: { type: 'string' } },
  q('disposition', { type: 'string', enum: ['inline', 'attachment'], default: 'inline' }, 'The disposition type of Content-Disposition.'),
  q('disposition_name', { type: 'string', minLength: 1 }, 'The file name in Content-Disposition (`<type>; filename*=UTF-8\'\'<name>`).'),
  q('content_type', { type: 'string', enum: CONTENT_TYPE_VALUES }, 'Sets Content-Type: al/alaw/ul/ulaw audio/basic, flac audio/flac, g722 audio/G722, mp3 audio/mpeg, mp4 video/mp4, ogg audio/ogg, wav audio/x-wav.'),
  q('cache_headers', { type: 'string', pattern: '^(no|[0-9]{1,10})$' }, '`no` gives `Cache-Control: no-cache`; N gives `public, max-age=N`. Wins over cache_control.'),
  q('cache_control', { type: 'string', pattern: '^(max-age=[0-9]+|max-stale|max-stale=[0-9]+|min-fresh=[0-9]+|no-cache|no-store|no-transform|only-if-cached)$' }, 'Sets Cache-Control to this directive. Without cache parameters the header is `None`.'),
  q('f', { type: 'string', enum: [...TARGET_FORMATS] }, 'Transcode to this format. Without a cached copy the whole result comes with 200, even for a Range. Without a usable ffmpeg: 503 naming what is missing.'),
  q('br', { type: 'integer', enum: [...BITRATES] }, 'Bitrate in kbit/s for lossy targets; ignored unless lower than the stored file\'s.'),
  { name: 'Range', in: 'header', description: '`bytes=<start>-<end>`: 206 with Content-Range.', schema: { type: 'string' } },
  { name: 'If-Range', in: 'header', description: 'The file\'s Last-Modified: the range if unchanged, else the whole file with 200.', schema: { type: 'string' } },
];

const HEADERS = {
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  'Content-Disposition': { schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
  'Last-Modified': { schema: { type: 'string' } },
  'Access-Control-Allow-Origin': { schema: { type: 'string', const: '*' } },
};
const bytes = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };

/**
 * The public file server (`GET {storage_url}/f/<id>`): a server of its own, so its path carries
 * its own `servers`. No credentials: a file is reachable only when published. Every "no such
 * published file" is the same 404.
 */
export function fileServerPath(storageUrl: string): Record<string, unknown> {
  const responses = (method: 'get' | 'head') => ({
    200: { description: 'The file (or its transcoded copy).', headers: HEADERS, ...(method === 'get' ? { content: bytes } : {}) },
    206: { description: 'The range asked for.', headers: { ...HEADERS, 'Content-Range': { schema: { type: 'string' } } }, ...(method === 'get' ? { content: bytes } : {}) },
    ...Object.fromEntries([400, 404, 416, 422, 500, 503, 504].map((s) => [String(s), errorResponse(s)])),
  });
  const op = (method: 'get' | 'head') => ({
    operationId: method === 'get' ? 'getPublicFile' : 'headPublicFile',
    summary: method === 'get' ? 'Download a published file (public link)' : 'The headers of a published file',
    description: 'The file\'s `publish_uri`. No Authorization. Ranges and If-Range; transcoding on the way with `f`/`br` (mp4 is a target only: transcoding an mp4 file is a 422).',
    tags: ['public file server'],
    parameters: PARAMETERS,
    responses: responses(method),
    security: [],
  });
  return { servers: [{ url: storageUrl, description: 'The public file server (STORAGE_URL)' }], get: op('get'), head: op('head') };
}
