import { reservePorts } from '../../packages/platform/src/testing/ports';

export { reservePorts, releasePorts } from '../../packages/platform/src/testing/ports';

/**
 * A port for a server that a test starts later (often much later: the distributed launcher's
 * children bind after compiling). Reserved below the ephemeral range, so no outgoing connection
 * and no other jest worker can take it in the meantime.
 */
export async function freePort(): Promise<number> {
  return reservePorts(1);
}
