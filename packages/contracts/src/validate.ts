import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { BadRequestError, errorItem } from './errors';
import type { ErrorItem } from './schemas/error';

// verbose: errors carry their schema, so a pattern can say in words what it wants (`patternMessage`).
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, verbose: true });
addFormats(ajv);
/** For values that arrive as strings by nature (query parameters, form fields): "true" → true, "5" → 5. */
const ajvStrings = new Ajv({ allErrors: true, strict: false, useDefaults: false, coerceTypes: true, verbose: true });
addFormats(ajvStrings);

/** Checks a value against a schema; returns it typed or throws a 400 naming every bad field. */
export type Validator<T> = (value: unknown) => T;

/**
 * Compiles `schema` once (call at start-up, never per request). Numeric strings are coerced for
 * integer/number fields ("39984" → 39984, as the compatible API does); nothing else is coerced —
 * unless `fromStrings` says every value arrived as a string (query parameters), then scalars are
 * coerced to the declared types.
 */
export function compileValidator<S extends TSchema>(
  schema: S,
  opts: { fromStrings?: boolean } = {},
): Validator<Static<S>> {
  const check = (opts.fromStrings ? ajvStrings : ajv).compile<Static<S>>(schema);
  // why: a TypeBox schema is a JSON Schema; SchemaNode names the few keywords the coercion reads.
  const coerce = compileCoercion(schema as SchemaNode, 0);
  return (value: unknown) => {
    const coerced = coerce ? coerce(value) : value;
    if (check(coerced)) return coerced;
    throw new BadRequestError({ message: 'validation error', errors: toErrorItems(check.errors ?? []) });
  };
}

function toErrorItems(errors: ErrorObject[]): ErrorItem[] {
  const items = new Map<string, ErrorItem>();
  for (const e of errors) {
    // Union schemas report one error per branch; keep the first per field.
    const base = e.instancePath.split('/').filter(Boolean).join('.');
    let field = base;
    let message = e.message ?? 'invalid value';
    if (e.keyword === 'additionalProperties') {
      const extra = String(e.params.additionalProperty);
      field = base ? `${base}.${extra}` : extra;
      message = 'unknown field';
    } else if (e.keyword === 'required') {
      const missing = String(e.params.missingProperty);
      field = base ? `${base}.${missing}` : missing;
      message = 'field is required';
    } else if (e.keyword === 'const' || e.keyword === 'enum' || e.keyword === 'anyOf') {
      message = 'value is not one of the allowed values';
    } else if (e.keyword === 'pattern') {
      const patternMessage: unknown = e.parentSchema?.patternMessage;
      if (typeof patternMessage === 'string') message = patternMessage;
    }
    if (!items.has(field)) items.set(field, errorItem(message, field || null));
  }
  return [...items.values()];
}

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  additionalProperties?: boolean | SchemaNode;
};

function acceptsNumber(s: SchemaNode): boolean {
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes('integer') || types.includes('number')) return true;
  return (s.anyOf ?? []).some((b) => b.type === 'integer' || b.type === 'number');
}
function acceptsString(s: SchemaNode): boolean {
  return s.type === 'string' || (s.anyOf ?? []).some((b) => b.type === 'string');
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Returns `value` with numeric strings turned into numbers where the schema wants numbers. */
type Coercion = (value: unknown) => unknown;

/** Schemas nest no deeper than this in contracts; past it the coercion is worked out per value. */
const MAX_COMPILED_DEPTH = 16;

/**
 * The numeric-string coercion of `schema`, worked out once: undefined when no value under it can
 * change (most schemas, and every record field but a few integers), else a function that copies an
 * object or array only when one of its values changes. Objects: the properties the schema names;
 * arrays: their `items`; a string where the schema takes a number and no string, when numeric.
 */
function compileCoercion(schema: SchemaNode, depth: number): Coercion | undefined {
  if (depth > MAX_COMPILED_DEPTH) return (value) => coerceNumericStrings(schema, value);
  const toNumber = acceptsNumber(schema) && !acceptsString(schema);
  const item = schema.items ?? schema.anyOf?.find((b) => b.items)?.items;
  const items = item ? compileCoercion(item, depth + 1) : undefined;
  const props = schema.properties ?? schema.anyOf?.find((b) => b.properties)?.properties;
  const fields: Array<[string, Coercion]> = [];
  for (const [name, sub] of Object.entries(props ?? {})) {
    const c = compileCoercion(sub, depth + 1);
    if (c) fields.push([name, c]);
  }
  if (!toNumber && !items && fields.length === 0) return undefined;
  return (value) => {
    if (typeof value === 'string') return toNumber && NUMERIC.test(value.trim()) ? Number(value) : value;
    if (Array.isArray(value)) return items ? value.map(items) : value;
    if (value === null || typeof value !== 'object') return value;
    let out: Record<string, unknown> | undefined;
    for (const [name, c] of fields) {
      if (!Object.hasOwn(value, name)) continue;
      const was: unknown = Reflect.get(value, name);
      const now = c(was);
      if (now === was) continue;
      out ??= { ...value };
      out[name] = now;
    }
    return out ?? value;
  };
}

/** The coercion for a value past MAX_COMPILED_DEPTH, reading the schema as it goes. */
function coerceNumericStrings(schema: SchemaNode, value: unknown): unknown {
  if (typeof value === 'string') {
    if (acceptsNumber(schema) && !acceptsString(schema) && NUMERIC.test(value.trim())) return Number(value);
    return value;
  }
  if (Array.isArray(value)) {
    const item = schema.items ?? schema.anyOf?.find((b) => b.items)?.items;
    return item ? value.map((v) => coerceNumericStrings(item, v)) : value;
  }
  if (value && typeof value === 'object') {
    const props = schema.properties ?? schema.anyOf?.find((b) => b.properties)?.properties;
    if (!props) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = Object.hasOwn(props, k) ? coerceNumericStrings(props[k], v) : v;
    return out;
  }
  return value;
}
