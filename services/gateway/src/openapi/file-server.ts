import { PublicFileQuerySchema } from '@patchbay/contracts';
import type { SchemaComponents } from './components';
import { queryParameters } from './parameters';
import { errorResponse } from './responses';

const parameters = (components: SchemaComponents) => [
  {
    name: 'file_identifier',
    in: 'path',
    required: true,
    description: "The file's `file_sid` or `file_access_name`, as its `publish_uri` has it.",
    schema: { type: 'string' },
  },
  ...queryParameters(PublicFileQuerySchema, components),
  {
    name: 'Range',
    in: 'header',
    description: '`bytes=<start>-<end>`: 206 with Content-Range.',
    schema: { type: 'string' },
  },
  {
    name: 'If-Range',
    in: 'header',
    description: "The file's Last-Modified or ETag: the range if unchanged, else the whole file with 200.",
    schema: { type: 'string' },
  },
  {
    name: 'If-None-Match',
    in: 'header',
    description: "ETags (or `*`): 304 with no body when one is the file's.",
    schema: { type: 'string' },
  },
  {
    name: 'If-Modified-Since',
    in: 'header',
    description: 'An HTTP date: 304 with no body when the bytes have not changed since (ignored with If-None-Match).',
    schema: { type: 'string' },
  },
];

const HEADERS = {
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  'Content-Disposition': { schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
  'Last-Modified': { schema: { type: 'string' } },
  ETag: {
    description: 'A strong tag of the stored bytes: it changes exactly when they do. None on a transcoded copy.',
    schema: { type: 'string' },
  },
  'Access-Control-Allow-Origin': { schema: { type: 'string', const: '*' } },
  'Access-Control-Expose-Headers': {
    description: 'What a player on another origin may read: Accept-Ranges, Content-Length, Content-Range, ETag.',
    schema: { type: 'string' },
  },
};
const bytes = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };

/**
 * The public file server (`GET {storage_url}/f/<id>`): a server of its own, so its path carries
 * its own `servers`. No credentials: a file is reachable only when published. Every "no such
 * published file" is the same 404.
 */
export function fileServerPath(storageUrl: string, components: SchemaComponents): Record<string, unknown> {
  const responses = (method: 'get' | 'head') => ({
    200: {
      description: 'The file (or its transcoded copy).',
      headers: HEADERS,
      ...(method === 'get' ? { content: bytes } : {}),
    },
    206: {
      description: 'The range asked for.',
      headers: { ...HEADERS, 'Content-Range': { schema: { type: 'string' } } },
      ...(method === 'get' ? { content: bytes } : {}),
    },
    304: {
      description: 'Not modified (If-None-Match or If-Modified-Since): no body.',
      headers: {
        ETag: HEADERS.ETag,
        'Last-Modified': HEADERS['Last-Modified'],
        'Cache-Control': HEADERS['Cache-Control'],
      },
    },
    ...Object.fromEntries([400, 404, 409, 416, 422, 500, 503, 504].map((s) => [String(s), errorResponse(s)])),
  });
  const op = (method: 'get' | 'head') => ({
    operationId: method === 'get' ? 'getPublicFile' : 'headPublicFile',
    summary: method === 'get' ? 'Download a published file (public link)' : 'The headers of a published file',
    description:
      "The file's `publish_uri`. No Authorization. Ranges and If-Range; " +
      'transcoding on the way with `f`/`br` (mp4 is a target only: ' +
      'transcoding an mp4 file is a 422; an encrypted file is served only as ' +
      'stored: `f`/`br` on it are a 409).',
    tags: ['public file server'],
    parameters: parameters(components),
    responses: responses(method),
    security: [],
  });
  const preflight = {
    operationId: 'preflightPublicFile',
    summary: 'CORS preflight of a published file',
    description:
      'What a browser asks before a cross-origin read that sends `Range` or a conditional header. ' +
      'The same answer for every identifier, published or not.',
    tags: ['public file server'],
    parameters: parameters(components).slice(0, 1),
    responses: {
      204: {
        description: 'Allowed: GET and HEAD from any origin, with Range, If-Range, If-None-Match, If-Modified-Since.',
        headers: {
          'Access-Control-Allow-Origin': HEADERS['Access-Control-Allow-Origin'],
          'Access-Control-Allow-Methods': { schema: { type: 'string', const: 'GET, HEAD' } },
          'Access-Control-Allow-Headers': { schema: { type: 'string' } },
          'Access-Control-Max-Age': { schema: { type: 'string' } },
        },
      },
      ...Object.fromEntries([400, 404].map((s) => [String(s), errorResponse(s)])),
    },
    security: [],
  };
  return {
    servers: [{ url: storageUrl, description: 'The public file server (STORAGE_URL)' }],
    get: op('get'),
    head: op('head'),
    options: preflight,
  };
}
