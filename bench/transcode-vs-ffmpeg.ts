/**
 * Transcoding time through Patchbay (download-time `?f=`, uncached: the public file server asks a
 * transcoder over the bus, which fetches the blob, runs ffmpeg and stores the copy, then the file
 * server streams it) against the same ffmpeg command run alone on a local file, in one run.
 *
 *   pnpm exec tsx bench/transcode-vs-ffmpeg.ts [seconds=120] [runs=9]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPatchbay } from '../tests/harness/patchbay';
import { FORMATS } from '../services/transcoder/src/ffmpeg/formats';
import { table } from './lib/proc';
import { defaultContainer } from '../tests/harness/default-container';
import { fetchDrain } from './lib/load';

const SECONDS = Number(process.argv[2] ?? 120);
const RUNS = Number(process.argv[3] ?? 9);
const SETTLE_MS = 300;
const PAIRS: Array<[string, string]> = [
  ['wav', 'mp3'],
  ['wav', 'g722'],
  ['mp3', 'wav'],
  ['wav', 'ogg'],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-tc-'));
  const inst = await startPatchbay('distributed', { LOG_LEVEL: 'warn', TRANSCODER_CONCURRENCY: '1' });
  const rows = [];
  try {
    const auth = { authorization: `Bearer ${inst.token}` };
    const containerSid = await defaultContainer(inst, 60_000);
    for (const [source, target] of PAIRS) {
      const input = path.join(dir, `in.${source}`);
      execFileSync('ffmpeg', [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:sample_rate=16000:duration=${SECONDS}`,
        ...FORMATS[source].output,
        input,
      ]);
      // Interleaved, so both sides see the same machine: one ffmpeg-alone run, then one through Patchbay.
      const alone: number[] = [];
      const via: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        execFileSync('ffmpeg', [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-y',
          '-i',
          input,
          '-map',
          '0:a:0',
          '-vn',
          ...FORMATS[target].output,
          path.join(dir, `out.${target}`),
        ]);
        alone.push(performance.now() - t);
        // A fresh upload each run, so every download transcodes (no cached copy); what the upload
        // and the previous delete set off (events, cache invalidation) settles before the clock starts.
        const f = (await fetch(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=in.${source}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: fs.readFileSync(input),
        }).then((r) => r.json())) as { publish_uri: string; file_sid: string };
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        t = performance.now();
        await fetchDrain(`${f.publish_uri}?f=${target}`);
        via.push(performance.now() - t);
        await fetch(`${inst.baseUrl}/storage/files/${f.file_sid}`, { method: 'DELETE', headers: auth });
      }
      rows.push({
        pair: `${source} → ${target}`,
        'ffmpeg alone ms': median(alone).toFixed(0),
        'Patchbay ms': median(via).toFixed(0),
        ratio: (median(via) / median(alone)).toFixed(2),
      });
    }
  } finally {
    await inst.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nTranscoding ${SECONDS} s of audio, median of ${RUNS} runs (target ratio ≤ 1.2)\n`);
  console.log(table(rows));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
