/** A JSON object (not an array, not null), e.g. a parsed provider answer or credentials file. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
