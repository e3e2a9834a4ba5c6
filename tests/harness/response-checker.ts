import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** An OpenAPI document as the checker reads it. */
type Json = Record<string, unknown>;
interface ResponseObject {
  $ref?: string;
  content?: Record<string, unknown>;
}
interface OperationObject {
  responses: Record<string, ResponseObject>;
}

/** A response as the checker needs it: what was asked, and what came back. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string;
  /** The body as text (JSON responses), or null when there is none or it is bytes. */
  text: string | null;
}

const API_PREFIX = '/core/v2';
/** The error body of an unknown route (no operation to check against). */
const NOT_FOUND_POINTER = '#/components/responses/NotFound';

/**
 * Checks live responses against the OpenAPI document (decisions §25): the status must be one the
 * operation documents, a JSON response must be JSON where the document says so and fit the
 * schema of that status (through ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). Requests under
 * `/core/v2` that match no operation must be the 404 error body; other paths (/health, /metrics,
 * /docs) are not the API's and are left alone. Validators are compiled once per (operation, status).
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly templates: Array<{ regex: RegExp; literal: number; path: string }>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json & { paths: Record<string, Record<string, OperationObject>> }) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
    // Without include_fields/exclude_fields every field must be there: the whole-object branch of
    // each "whole or Selection" body (decisions §41). Filtered responses are checked against the
    // document as published.
    this.ajv.addSchema(wholeOnly(doc) as Json, 'openapi-whole');
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        regex: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        // Literal segments first: `/oauth/whoami` before a `/{sid}` that would match it too.
        literal: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literal - a.literal);
  }

  /** What is wrong with this exchange, in words; null when it matches the document (or is not the API's). */
  check(x: Exchange): string | null {
    const pathname = new URL(x.url).pathname;
    const method = x.method.toLowerCase();
    const apiPath = pathname.startsWith(`${API_PREFIX}/`)
      ? pathname.slice(API_PREFIX.length)
      : pathname.startsWith('/f/')
        ? pathname
        : null;
    if (apiPath === null) return null;
    const template = this.templates.find(
      (t) => t.regex.test(apiPath) && apiPath.startsWith('/f/') === t.path.startsWith('/f/'),
    );
    const operation = template ? this.doc.paths[template.path][method] : undefined;
    const where = `${x.method.toUpperCase()} ${pathname} → ${x.status}`;
    if (!operation) {
      if (x.status !== 404) return `${where}: no operation in the document, so only the 404 error body is expected`;
      return this.checkBody(where, NOT_FOUND_POINTER, this.resolve(NOT_FOUND_POINTER), x);
    }
    const base = `#/paths/${pointerEscape(template!.path)}/${method}/responses`;
    const declared = operation.responses[String(x.status)]
      ? String(x.status)
      : operation.responses.default
        ? 'default'
        : null;
    if (!declared)
      return `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
    const ref = operation.responses[declared].$ref;
    const pointer = ref ?? `${base}/${declared}`;
    return this.checkBody(where, pointer, this.resolve(pointer), x);
  }

  private resolve(pointer: string): ResponseObject {
    let node: unknown = this.doc;
    for (const part of pointer.slice(2).split('/'))
      node = (node as Json)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
    return node as ResponseObject;
  }

  private checkBody(where: string, pointer: string, response: ResponseObject, x: Exchange): string | null {
    const jsonSchema = response.content?.['application/json'];
    const isJson = /^application\/(.+\+)?json\b/.test(x.contentType);
    if (!response.content) return x.text ? `${where}: documented without a body, got ${x.contentType}` : null;
    if (!jsonSchema) return null; // bytes of any type
    if (!isJson) return `${where}: documented as application/json, got "${x.contentType}"`;
    let body: unknown;
    try {
      body = JSON.parse(x.text ?? '');
    } catch {
      return `${where}: the body is not JSON`;
    }
    const selected = /[?&](include_fields|exclude_fields)=/.test(x.url);
    const validate = this.validator(
      `${selected ? 'openapi' : 'openapi-whole'}${pointer}/content/application~1json/schema`,
    );
    if (validate(body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '(body)'} ${e.message}` +
          (e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''),
      );
    return `${where}: the body does not fit the document: ${errors.join('; ')}`;
  }

  /** The validator of the schema at `ref` (`<document>#<pointer>`), compiled once. */
  private validator(ref: string): ValidateFunction {
    let v = this.compiled.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, v);
    }
    return v;
  }
}

/** A path as one JSON Pointer token in a URI fragment (`/endpoints/{sid}` → `~1endpoints~1%7Bsid%7D`). */
function pointerEscape(token: string): string {
  return encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
}

/** A copy of the document where each "whole or Selection" body is the whole object alone. */
function wholeOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(wholeOnly);
  if (node === null || typeof node !== 'object') return node;
  const anyOf = (node as { anyOf?: unknown }).anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && /Selection$/.test(String((anyOf[1] as { $ref?: unknown }).$ref)))
    return wholeOnly(anyOf[0]);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, wholeOnly(v)]));
}
