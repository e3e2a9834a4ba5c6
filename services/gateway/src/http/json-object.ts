/** A JSON object (not an array, not null): what a schema or a schema's part is. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
