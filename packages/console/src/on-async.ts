/**
 * An event handler made from an async function. The DOM ignores what a handler returns, so a
 * rejection the function did not handle itself would be lost: it is logged to the browser's
 * console instead.
 */
export function onAsync<E>(fn: (event: E) => Promise<void>): (event: E) => void {
  return (event) => {
    fn(event).catch((err: unknown) => console.error('an event handler failed', err));
  };
}
