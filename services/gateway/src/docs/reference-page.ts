import path from 'node:path';
import express, { type Router } from 'express';

/** Swagger UI's files the page loads, served from the installed `swagger-ui-dist` (never a CDN). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export interface ReferencePageOptions {
  /** Where the page reads the OpenAPI document (same origin). */
  documentPath: string;
  /** Origins "Try it out" may call besides this one: the API's and the file server's public roots. */
  apiUrls: readonly string[];
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Patchbay API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>
</body>
</html>
`;

/**
 * The page's own script (a file, not inline, so the policy can forbid inline scripts). No
 * validator badge: Swagger UI would ask validator.swagger.io about the document.
 */
const script = (documentPath: string) => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(documentPath)},
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
});
`;

/** Local only: scripts, styles and images from this origin; requests to this origin and the API's. */
function contentSecurityPolicy(apiUrls: readonly string[]): string {
  const origins = [...new Set(apiUrls.map((u) => new URL(u).origin))].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${origins}`.trim(),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `GET /docs`: the API reference, Swagger UI rendering `/core/v2/openapi.json`, with every asset
 * served from here (decisions §26). A Content-Security-Policy that allows no other origin
 * for scripts, styles, images or fonts keeps it that way: a remote asset would be blocked, not
 * loaded. Styles may be inline (Swagger UI sets some), scripts may not.
 */
export function referencePage(opts: ReferencePageOptions): Router {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const csp = contentSecurityPolicy(opts.apiUrls);
  const initScript = script(opts.documentPath);
  const router = express.Router({ strict: true, caseSensitive: true });
  router.use('/docs', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/docs', (_req, res) => {
    res.status(200).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
  router.get('/docs/assets/reference.js', (_req, res) => {
    res.status(200).type('text/javascript; charset=utf-8').setHeader('Cache-Control', 'no-cache');
    res.send(initScript);
  });
  router.get('/docs/assets/:name', (req, res, next) => {
    const type = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!type) return next();
    // `root`: the dot-directories above it (pnpm's node_modules/.pnpm) are not the asset's own path.
    res.sendFile(req.params.name, { root: dist, maxAge: '1d', headers: { 'Content-Type': type } }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
