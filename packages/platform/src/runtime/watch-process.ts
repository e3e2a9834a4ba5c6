/**
 * Calls `onGone` once the process `pid` no longer exists (checked every `intervalMs`). The timer
 * does not keep the event loop alive.
 */
export function watchProcess(pid: number, onGone: () => void, intervalMs = 1000): () => void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPERM') return; // exists, owned by someone else
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
