import request from 'supertest';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { findInGroup } from '../../bench/lib/proc';
import { until as poll } from '../support/poll';

/** Across a NATS restart a check may fail outright; that counts as "not yet". */
const until = <T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>) =>
  poll(what, timeoutMs, check, { ignoreErrors: true, everyMs: 200 });

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
describe('NATS restarts under load', () => {
  let inst: PatchbayInstance;
  afterAll(async () => {
    await inst?.stop();
  });

  test(
    'every service reconnects by itself, and every accepted upload still ' + 'gets its transcoding job done',
    async () => {
      inst = await startPatchbay('distributed', {
        TRANSCODER_REPLICAS: '2',
        TRANSCODER_CONCURRENCY: '1',
        BUS_TIMEOUT_MS: '4000',
      });
      const api = () => request(inst.origin);
      const auth = ['Authorization', `Bearer ${inst.token}`] as const;
      const containerSid = await defaultContainer(inst);
      const published = (
        await api()
          .post(`/core/v2/storage/files?container_sid=${containerSid}&name=pub.wav`)
          .set(...auth)
          .set('Content-Type', 'application/octet-stream')
          .send(tone('wav', 1))
      ).body;
      const storagePort = Number(new URL(inst.storageUrl).port);

      // Load: uploads with upload-time jobs, and API calls to several services, until told to stop.
      const accepted: string[] = [];
      const statuses: number[] = [];
      let loading = true;
      const uploader = async (n: number) => {
        for (let i = 0; loading && i < 200; i++) {
          const res = await api()
            .post(
              `/core/v2/storage/files?container_sid=${containerSid}` +
                `&name=load-${n}-${i}.wav&type=audio&desired_format=mp3`,
            )
            .set(...auth)
            .set('Content-Type', 'application/octet-stream')
            .send(tone('wav', 2))
            .catch(() => undefined);
          if (res) statuses.push(res.status);
          if (res?.status === 201) accepted.push(res.body.file_sid);
          else await new Promise((r) => setTimeout(r, 100)); // the load's pace while refused
        }
      };
      const caller = async () => {
        const paths = [
          '/core/v2/countries?limit=1',
          '/core/v2/endpoints?limit=1',
          '/core/v2/storage/files?limit=1',
          '/core/v2/oauth/whoami',
        ];
        for (let i = 0; loading && i < 2000; i++) {
          const res = await api()
            .get(paths[i % paths.length])
            .set(...auth)
            .catch(() => undefined);
          if (res) statuses.push(res.status);
          await new Promise((r) => setTimeout(r, 20)); // the load's pace
        }
      };
      const processes = findInGroup(inst.pid, '/src/main.ts').sort();
      const load = Promise.all([uploader(1), uploader(2), caller()]);
      await until('some uploads before the restart', 20000, async () => (accepted.length >= 2 ? true : undefined));
      const beforeRestart = accepted.length;
      await inst.restartNats(1500);
      // The load goes on until uploads are accepted again. Requests caught by the restart end within
      // their bus timeout (an upload's commit waits up to 30 s) as 503/504; none hangs for good.
      await until('uploads accepted after the restart', 60000, async () =>
        accepted.length >= beforeRestart + 2 ? true : undefined,
      ).finally(() => {
        loading = false;
      });
      await load;

      // Nothing answered with a bare 500 meanwhile: the bus being away is a 503 or a 504.
      expect(statuses.filter((s) => ![200, 201, 503, 504].includes(s))).toEqual([]);
      expect(accepted.length).toBeGreaterThan(beforeRestart);

      // Every service answers again (no process was restarted): identity (Basic auth), records,
      // endpoint, storage, push, the file server and the transcoder (a download-time transcode).
      const basic = `Basic ${Buffer.from(`${inst.login}:${inst.password}`).toString('base64')}`;
      for (const path of [
        '/core/v2/oauth/whoami',
        '/core/v2/countries?limit=1',
        '/core/v2/endpoints?limit=1',
        '/core/v2/storage/files?limit=1',
        '/core/v2/push/applications?limit=1',
      ]) {
        await until(`${path} to answer`, 30000, async () =>
          (await api().get(path).set('Authorization', basic)).status === 200 ? true : undefined,
        );
      }
      await until('the file server and the transcoder', 30000, async () =>
        (await request(`http://127.0.0.1:${storagePort}`).get(`/f/${published.file_sid}?f=ogg`)).status === 200
          ? true
          : undefined,
      );

      // Every accepted upload's job completes (a job caught by the restart comes back after its ack wait).
      for (const sid of accepted) {
        const f = await until(`the job of ${sid}`, 90000, async () => {
          const body = (
            await api()
              .get(`/core/v2/storage/files/${sid}`)
              .set(...auth)
          ).body;
          return body.content_transcoding_progress === 100 ? body : undefined;
        });
        expect(f.content_format).toBe('mp3');
      }
      // The very same processes did all this: none was restarted.
      expect(findInGroup(inst.pid, '/src/main.ts').sort()).toEqual(processes);
      // And new work flows as before.
      const after = await api()
        .post(`/core/v2/storage/files?container_sid=${containerSid}&name=after.wav&type=audio&desired_format=flac`)
        .set(...auth)
        .set('Content-Type', 'application/octet-stream')
        .send(tone('wav', 1));
      expect(after.status).toBe(201);
      await until('a job after the restart', 30000, async () =>
        (
          await api()
            .get(`/core/v2/storage/files/${after.body.file_sid}`)
            .set(...auth)
        ).body.content_format === 'flac'
          ? true
          : undefined,
      );
    },
    240000,
  );
});
