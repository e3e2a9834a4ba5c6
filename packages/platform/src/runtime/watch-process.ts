/**
 * Calls `onGone` once the process `pid` no longer exists (checked every `intervalMs`). The timer
 * does not keep the event loop alive.
 */
import { errorCode } from '../basics/error-fields';
export function watchProcess(pid: number, onGone: () => void, intervalMs = 1000): () => void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if (errorCode(err) === 'EPERM') return; // exists, owned by someone else
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
