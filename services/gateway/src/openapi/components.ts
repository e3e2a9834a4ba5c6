import { isJsonObject } from '@patchbay/platform';
import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema as the document holds it (plain JSON: no TypeBox symbols). */
export type JsonSchema = Record<string, unknown>;

/** Keywords of Patchbay's own that are not JSON Schema (error wording for people): left out of the document. */
const PRIVATE_KEYWORDS = new Set(['patternMessage']);

/**
 * The document's `components.schemas`: every schema of the contracts that has an `$id` is listed
 * once under that name and referenced (`#/components/schemas/<id>`) wherever it is used, so the
 * reference page and generated clients get one named type per resource (Endpoint, File, ErrorBody…).
 */
export class SchemaComponents {
  private readonly named = new Map<string, { schema: JsonSchema; text: string }>();

  /** `schema` as the document writes it: named sub-schemas replaced by references. */
  use(schema: TSchema | JsonSchema): JsonSchema {
    return this.walkObject(plainCopy(schema));
  }

  /**
   * The body of an operation with field filtering (`include_fields`/`exclude_fields`): the resource
   * (a GET by SID's body, or a list's `items`) is the whole object or its `<Name>Selection` form — the
   * same fields, none required, as a field-filtered response is (decisions §41). Without filtering
   * every field is present, as the whole object says.
   */
  useSelectable(schema: TSchema | JsonSchema): JsonSchema {
    const copy = plainCopy(schema);
    const either = (resource: JsonSchema): JsonSchema => ({
      anyOf: [resource, selection(resource)],
      description:
        'The whole object; with `include_fields` or `exclude_fields`, only the fields selected (the Selection form).',
    });
    if (typeof copy.$id === 'string') return this.walkObject(either(copy));
    const items = isJsonObject(copy.properties) ? copy.properties.items : undefined;
    if (isJsonObject(items) && isJsonObject(items.items) && typeof items.items.$id === 'string')
      items.items = either(items.items);
    return this.walkObject(copy);
  }

  /** The `components.schemas` object, names in alphabetical order. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.named.keys()].sort().map((id) => [id, this.named.get(id)!.schema]));
  }

  private walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.walk(n));
    return isJsonObject(node) ? this.walkObject(node) : node;
  }

  private walkObject(node: JsonSchema): JsonSchema {
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (PRIVATE_KEYWORDS.has(key) || key === '$id') continue;
      out[key] = this.walk(value);
    }
    const id = node.$id;
    if (typeof id !== 'string') return asEnum(out);
    this.register(id, asEnum(out));
    return { $ref: `#/components/schemas/${id}` };
  }

  /** Two different schemas under one `$id` would make one of them wrong in the document: refused. */
  private register(id: string, schema: JsonSchema): void {
    const text = JSON.stringify(schema);
    const had = this.named.get(id);
    if (had && had.text !== text) throw new Error(`two different schemas have the $id ${id}`);
    this.named.set(id, { schema, text });
  }
}

/** A plain JSON copy of a schema: TypeBox's symbols and anything else JSON does not hold left out. */
function plainCopy(schema: TSchema | JsonSchema): JsonSchema {
  const copy: unknown = JSON.parse(JSON.stringify(schema));
  if (!isJsonObject(copy)) throw new Error('a schema is a JSON object');
  return copy;
}

/** A copy of a schema with nothing required at any depth, each named part renamed `<Name>Selection`. */
function selection(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' && Array.isArray(value)) continue;
    out[key] = key === '$id' && typeof value === 'string' ? `${value}Selection` : stripRequired(value);
  }
  return out;
}

function stripRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripRequired);
  return isJsonObject(value) ? selection(value) : value;
}

/**
 * TypeBox writes a union of literals as `anyOf: [{const, type}, …]`; the same set as one `enum`
 * reads better on the reference page and in generated clients, and means the same.
 */
function asEnum(node: Record<string, unknown>): Record<string, unknown> {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length < 2) return node;
  const first: unknown = branches[0];
  const type = isJsonObject(first) ? first.type : undefined;
  const literal = (b: unknown): b is Record<string, unknown> =>
    isJsonObject(b) && 'const' in b && b.type === type && Object.keys(b).length === 2;
  if (typeof type !== 'string' || !branches.every(literal)) return node;
  const { anyOf: _branches, ...rest } = node;
  return { ...rest, type, enum: branches.map((b) => b.const) };
}
