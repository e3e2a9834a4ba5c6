/**
 * `tsx tests/mongo/congo-main.ts`: runs an in-memory CongoDB until stdin closes or SIGTERM/SIGINT,
 * printing one JSON line `{"url": …}` once it listens. For tests that need the emulator from
 * inside jest, which cannot load the ESM package itself (see start-congo.ts).
 */
import { startCongoServer } from './congo-server';

async function main(): Promise<void> {
  const server = await startCongoServer();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The parent going away (even killed outright) closes our stdin.
  process.stdin.on('end', stop).on('close', stop).resume();
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
