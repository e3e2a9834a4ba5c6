/** A JSON object (not an array, not null): a parsed body, schema, provider answer or credentials file. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
