import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { loseServiceData } from '../harness/stores';
import { until } from '../support/poll';

describe('partners the endpoint and storage services never saw get their defaults at start-up', () => {
  let inst: PatchbayInstance;
  afterAll(async () => {
    await inst?.stop();
  });

  test('System Gateway and default container are back after their databases are lost', async () => {
    inst = await startPatchbay(mode());
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const gateways = () =>
      request(inst.origin)
        .get('/core/v2/endpoints?filter=type+eq+system_gateway')
        .set(...auth);
    const containers = () =>
      request(inst.origin)
        .get('/core/v2/storage/containers')
        .set(...auth);
    await until('the first defaults', 30000, async () =>
      (await gateways()).body.count === 1 && (await containers()).body.count === 1 ? true : undefined,
    );

    // Lose the two services' own data (a data directory older than those services looks the same).
    await inst.kill();
    await loseServiceData(inst, ['endpoint', 'storage']);
    inst = await inst.restart();

    await until('the backfill', 30000, async () =>
      (await gateways()).body.count === 1 && (await containers()).body.count === 1 ? true : undefined,
    );
    expect((await containers()).body.items[0]).toMatchObject({ is_default: true, quota_bytes: 1073741824 });
  }, 120000);
});
