/**
 * The file server's resolver asks storage through the typed client and drops what it cached on
 * file events, each event checked against its contracts schema: a malformed one is dropped with an
 * error logged, never a crash, and the next well-formed one still works.
 */
import { ok, Subjects } from '@patchbay/contracts';
import { MemoryBus } from '@patchbay/platform';
import { captureLogger } from '../../../packages/platform/src/testing/capture-logger';
import { Resolver } from '../src/resolver';
import { untilTrue } from '../../../tests/support/poll';

const file = (sid: string) => ({
  file_sid: sid,
  blob_key: `files/P/${sid}`,
  file_bytes: 3,
  mime_type: 'audio/x-wav',
  name: 'a.wav',
  file_access_name: `${sid}.wav`,
  content_format: 'wav',
  content_bitrate: null,
  last_modified: new Date(0).toISOString(),
});

test('cached answers go on a file event; a malformed event is refused and logged', async () => {
  const { logger, lines } = captureLogger('error');
  const hub = MemoryBus.hub();
  const storageBus = new MemoryBus(hub);
  const bus = new MemoryBus(hub);
  let asked = 0;
  const storage = await storageBus.serve(Subjects.storage.fileResolvePublic, 'storage', async () => {
    asked += 1;
    return ok(file('F1'));
  });
  const resolver = new Resolver(bus, 60_000, 5000, logger);
  await resolver.start();
  try {
    expect(await resolver.resolve('F1')).toMatchObject({ file_sid: 'F1' });
    await resolver.resolve('F1');
    expect(asked).toBe(1);

    await storageBus.publish(Subjects.events.fileUpdated, { partner_sid: 'P' });
    const refused = () => lines.filter((l) => l.msg === 'malformed internal message refused').map((l) => l.subject);
    await untilTrue(() => refused().length > 0, { what: 'the refusal to be logged' });
    expect(refused()).toEqual([Subjects.events.fileUpdated]);
    await resolver.resolve('F1');
    expect(asked).toBe(1);

    await storageBus.publish(Subjects.events.fileDeleted, { file_sid: 'F1', partner_sid: 'P' });
    await untilTrue(
      async () => {
        await resolver.resolve('F1');
        return asked > 1;
      },
      { what: 'the deletion to drop the cached answer' },
    );
    expect(asked).toBe(2);
  } finally {
    await resolver.stop();
    await storage.stop();
    await Promise.all([bus.close(), storageBus.close()]);
  }
});
