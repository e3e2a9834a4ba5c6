import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { data, idempotent, ok, rawBody } from '@patchbay/client';
import { mimeOfFormat } from '@patchbay/contracts/src/media-formats';
import { IDEMPOTENCY_KEY_OPTION, apiClient, numberOption, type ClientOptions } from '../client';
import { nodeReadable, webBody } from '@patchbay/client/src/node-streams';
import { examples } from '../help';
import { userPath } from '../paths';

/**
 * `patchbay media record|play|callbacks` — the media plane without a media server: store a
 * recording for an endpoint as its application would, play a file as the endpoint may, and see
 * the Voicemail callbacks sent. Needs the operator's credentials (scope media.manage).
 */
export function registerMedia(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const m = program.command('media').description('the media plane: recordings in, playback out (operator only)');
  examples(m, 'patchbay media record call.wav --endpoint 0b5e…', 'patchbay media callbacks --state failed');

  const record = m
    .command('record <file>')
    .description('store <file> as a recording made by an endpoint; prints the File')
    .requiredOption('--endpoint <sid>', 'the conference, flexml or voicemail endpoint that recorded it')
    .option('--container <sid>', "the FlexML Record verb's containerSid")
    .option('--name <name>', 'the file name (default <call or file_sid>.<ext>)')
    .option('--call <call_sid>', 'the call it was recorded on')
    .option('--type <mime>', 'Content-Type of the file (default from its extension)')
    .option(IDEMPOTENCY_KEY_OPTION[0], `${IDEMPOTENCY_KEY_OPTION[1]} (default: a new key for this recording)`)
    .action(
      async (
        given: string,
        o: {
          endpoint: string;
          container?: string;
          name?: string;
          call?: string;
          type?: string;
          idempotencyKey?: string;
        },
      ) => {
        const file = userPath(given);
        const query = { endpoint_sid: o.endpoint, container_sid: o.container, name: o.name, call_sid: o.call };
        const type = o.type ?? mimeOfFormat(path.extname(file).slice(1).toLowerCase()) ?? 'application/octet-stream';
        const size = String(fs.statSync(file).size);
        const api = apiClient(opts()).api;
        // Streamed from disk, never read whole; opened again for each attempt, all with one key: stored once.
        print(
          await data(
            idempotent(
              (headers) =>
                api.POST('/media/recordings', {
                  params: { query },
                  ...rawBody(webBody(fs.createReadStream(file)), type, { 'Content-Length': size, ...headers }),
                }),
              { idempotencyKey: o.idempotencyKey },
            ),
          ),
        );
      },
    );

  examples(
    record,
    'patchbay media record call.wav --endpoint 0b5e… --call 7c1d…',
    'patchbay media record msg.wav --endpoint 0b5e… --container 6f1c…',
  );

  const play = m
    .command('play')
    .description('fetch a file as the endpoint may play it, into -o <out> (- for stdout)')
    .requiredOption('--endpoint <sid>', 'the endpoint that plays it')
    .option('--file <sid>', 'by file_sid (a FlexML File noun)')
    .option('--uri <publish_uri>', 'by publish_uri (FlexML Play, a Voicemail greeting)')
    .option('--range <range>', 'only these bytes, e.g. 0-1023')
    .requiredOption('-o, --out <path>', 'where to write the bytes')
    .action(async (o: { endpoint: string; file?: string; uri?: string; range?: string; out: string }) => {
      const query = { endpoint_sid: o.endpoint, file_sid: o.file, uri: o.uri };
      const headers = o.range ? { Range: `bytes=${o.range}` } : {};
      const { data: bytes, response } = await ok(
        apiClient(opts()).api.GET('/media/playback', { params: { query }, headers, parseAs: 'stream' }),
      );
      const target = userPath(o.out);
      const out = target === '-' ? process.stdout : fs.createWriteStream(target);
      await pipeline(nodeReadable(bytes), out);
      if (target !== '-')
        print({
          status: response.status,
          content_type: response.headers.get('content-type'),
          content_range: response.headers.get('content-range'),
          bytes: fs.statSync(target).size,
          out: target,
        });
    });
  examples(play, 'patchbay media play --endpoint 0b5e… --file 9d4e… -o played.wav');

  const callbacks = m
    .command('callbacks')
    .description('the Voicemail callbacks sent, newest first')
    .option('--endpoint <sid>')
    .option('--state <state>', 'pending, delivered or failed')
    .option('--limit <n>')
    .action(async (o: { endpoint?: string; state?: string; limit?: string }) => {
      const filter = [o.endpoint ? `endpoint_sid eq "${o.endpoint}"` : '', o.state ? `state eq "${o.state}"` : '']
        .filter(Boolean)
        .join(' and ');
      print(
        await data(
          apiClient(opts()).api.GET('/media/callbacks', {
            params: { query: { filter: filter || undefined, limit: numberOption(o.limit) } },
          }),
        ),
      );
    });
  examples(callbacks, 'patchbay media callbacks --endpoint 0b5e… --state failed --limit 20');
}
