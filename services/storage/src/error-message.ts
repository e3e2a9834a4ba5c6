/**
 * The message of something thrown, for a log line. Read by shape, not `instanceof Error`: an error
 * made in another realm (Node's own, seen from a jest sandbox) is an Error too.
 */
export function errorMessage(err: unknown): string {
  const message = typeof err === 'object' && err !== null && 'message' in err ? err.message : undefined;
  return typeof message === 'string' ? message : String(err);
}
