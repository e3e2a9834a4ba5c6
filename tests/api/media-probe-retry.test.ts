/**
 * No acknowledged file keeps missing metadata (issue 40 item 2, decisions §49): a media probe that fails while
 * the file is committed is retried from a durable queue until the transcoder answers. Distributed: the transcoder
 * process is frozen (SIGSTOP) while three WAVs are uploaded, then thawed (SIGCONT); JetStream holds the probes.
 * Embedded (one process, the transcoder in it): its ffprobe hangs while a switch file exists (a wrapper set as
 * FFPROBE_PATH), the process is killed and started again with the probes pending in its store, then the switch goes.
 * Either way every file gets its duration soon after, and each failure is logged once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { serviceProcess } from '../distributed/service-process';
import { tone } from '../support/media';
import { until } from '../support/poll';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-probe-retry-'));
const frozen = path.join(dir, 'frozen');
/** ffprobe that waits while the switch file exists, then runs the real one: a transcoder that stops answering. */
const wrapper = path.join(dir, 'ffprobe');
const realFfprobe = execFileSync('sh', ['-c', 'command -v ffprobe']).toString().trim();
fs.writeFileSync(wrapper, `#!/bin/sh\nwhile [ -e '${frozen}' ]; do sleep 0.1; done\nexec '${realFfprobe}' "$@"\n`, {
  mode: 0o755,
});
// A short probe timeout and backoff so the test takes seconds; the defaults are 15 s and 5 s doubling to 60 s.
const FAST = { STORAGE_PROBE_TIMEOUT_MS: '2000', STORAGE_PROBE_RETRY_MS: '500', STORAGE_PROBE_RETRY_MAX_MS: '2000' };

let inst: PatchbayInstance;
afterAll(async () => {
  await inst?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('files acknowledged while the probe fails all get their duration once the transcoder answers', async () => {
  const embedded = mode() === 'embedded';
  inst = await startPatchbay(mode(), embedded ? { ...FAST, FFPROBE_PATH: wrapper } : FAST);
  const containerSid = await defaultContainer(inst);
  const auth = ['Authorization', `Bearer ${inst.token}`] as const;
  const transcoder = embedded ? 0 : serviceProcess(inst.pid, 'services/transcoder/src/main.ts');
  if (embedded) fs.writeFileSync(frozen, '');
  else process.kill(transcoder, 'SIGSTOP');
  let thawed = false;
  const thaw = () => {
    if (thawed) return;
    thawed = true;
    if (embedded) fs.rmSync(frozen, { force: true });
    else process.kill(transcoder, 'SIGCONT');
  };
  try {
    const uploads = await Promise.all(
      [1, 2, 3].map((seconds) =>
        request(inst.origin)
          .post(`/core/v2/storage/files?container_sid=${containerSid}&name=probe-${seconds}.wav`)
          .set(...auth)
          .set('Content-Type', 'application/octet-stream')
          .send(tone('wav', seconds)),
      ),
    );
    for (const res of uploads) {
      expect(res.status).toBe(201);
      expect(res.body.content_duration).toBeNull();
    }
    if (embedded) {
      // The probes wait in the store: a crash does not lose them.
      await inst.kill();
      inst = await inst.restart();
    }
    const thawedAt = Date.now();
    thaw();
    const described = await until(
      'every file to get its duration',
      90_000,
      async () => {
        const files = await Promise.all(
          uploads.map((u) =>
            request(inst.origin)
              .get(`/core/v2/storage/files/${u.body.file_sid}`)
              .set(...auth),
          ),
        );
        return files.every((f) => f.body.content_duration !== null) ? files.map((f) => f.body) : undefined;
      },
      { everyMs: 250 },
    );
    expect(Date.now() - thawedAt).toBeLessThan(90_000);
    expect(described.map((f) => Math.round(f.content_duration))).toEqual([1, 2, 3]);
    expect(described.map((f) => f.content_format)).toEqual(['wav', 'wav', 'wav']);
    // Each file's failed probe is logged once, with what happens next (the embedded output restarted with it).
    if (!embedded) expect(inst.output().split('media probe failed; the file is stored').length - 1).toBe(3);
  } finally {
    thaw();
  }
}, 120_000);
