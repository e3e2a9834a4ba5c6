import type { RequestHandler } from 'express';
import { Type } from '@sinclair/typebox';
import type { RouteDef, StreamDeps } from '../http/route-def';

/** `GET /openapi.json`: this API's OpenAPI 3.1 document, built once at start (openapi/document.ts). */
function documentRoute(deps: StreamDeps): RequestHandler {
  return (_req, res) => {
    res.status(200).type('application/json').setHeader('Cache-Control', 'no-cache');
    res.send(deps.openapi());
  };
}

/** The API's description of itself: needs no credentials, like the reference page at /docs that reads it. */
export const DOCUMENT_ROUTES: RouteDef[] = [
  {
    method: 'get',
    path: '/openapi.json',
    scopes: [],
    auth: false,
    handler: documentRoute,
    doc: {
      summary: 'This document (OpenAPI 3.1)',
      description:
        'The whole public API, generated from the same route table and schemas the API runs on. Rendered at `/docs`.',
      responses: {
        200: Type.Object(
          { openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) },
          { additionalProperties: true },
        ),
      },
    },
  },
];
