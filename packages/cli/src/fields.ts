/**
 * Fields set by name on the command line (`--set quota_bytes=1048576`, `--attribute key=value`):
 * repeatable; the value is read as JSON when it is JSON (numbers, true/false, null, arrays, objects)
 * and as a string otherwise, so `--set name=Archive` and `--set quota_files=100` both do what they say.
 */
export function collectSetting(text: string, previous: Array<[string, unknown]> = []): Array<[string, unknown]> {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`expected <name>=<value>, not "${text}"`);
  const name = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    /* not JSON: the text itself */
  }
  return [...previous, [name, value]];
}

/** A whole number ≥ `min` from an option, or an error naming the option. */
export function integerOption(option: string, min = 0): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`${option} must be a whole number of at least ${min}`);
    return n;
  };
}

/** `entries` as an object, leaving out the undefined ones. */
export function defined(entries: Array<[string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}
