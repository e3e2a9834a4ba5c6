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
  return (value: unknown) => {
    // why: a TypeBox schema is a JSON Schema; SchemaNode names the few keywords the coercion reads.
    const coerced = coerceNumericStrings(schema as SchemaNode, value);
    if (check(coerced)) return coerced;
    throw new BadRequestError('validation error', toErrorItems(check.errors ?? []));
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

/** Returns a copy of `value` with numeric strings turned into numbers where the schema wants numbers. */
function coerceNumericStrings(schema: SchemaNode, value: unknown): unknown {
  if (typeof value === 'string') {
    if (acceptsNumber(schema) && !acceptsString(schema) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
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
    for (const [k, v] of Object.entries(value)) out[k] = props[k] ? coerceNumericStrings(props[k], v) : v;
    return out;
  }
  return value;
}
