/**
 * The media-plane simulator for people: `pnpm patchbay media record|play|callbacks`, against the
 * running instance, as the operator.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { instance, newPartner } from '../harness/api';
import { patchbay } from '../support/cli';
import { tone } from '../support/media';
import { endpoint } from '../support/media-plane';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('record a file for an endpoint, play it back whole and by range, list the callbacks', async () => {
  const p = await newPartner();
  const flexml = await endpoint(p, 'flexml');
  const source = path.join(dir, 'greeting.wav');
  fs.writeFileSync(source, tone('wav', 2));
  const rec = await patchbay(
    '--token',
    instance().token,
    'media',
    'record',
    '--endpoint',
    flexml.endpoint_sid,
    '--call',
    'cli-call',
    source,
  );
  expect(rec.stderr).toBe('');
  expect(rec.code).toBe(0);
  const file = JSON.parse(rec.stdout);
  expect(file).toMatchObject({
    name: 'cli-call.wav',
    type: 'audio',
    content_classification: 'media',
    partner_sid: p.partner_sid,
  });

  const out = path.join(dir, 'back.wav');
  const played = await patchbay(
    '--token',
    instance().token,
    'media',
    'play',
    '--endpoint',
    flexml.endpoint_sid,
    '--file',
    file.file_sid,
    '-o',
    out,
  );
  expect(played.code).toBe(0);
  expect(fs.readFileSync(out).equals(fs.readFileSync(source))).toBe(true);
  const part = path.join(dir, 'part.bin');
  const ranged = await patchbay(
    '--token',
    instance().token,
    'media',
    'play',
    '--endpoint',
    flexml.endpoint_sid,
    '--uri',
    file.publish_uri,
    '--range',
    '0-99',
    '-o',
    part,
  );
  expect(JSON.parse(ranged.stdout)).toMatchObject({ status: 206, bytes: 100 });

  const listed = await patchbay('--token', instance().token, 'media', 'callbacks', '--state', 'failed', '--limit', '5');
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout)).toMatchObject({ limit: 5 });
});

test('a recording sent again with its --idempotency-key is stored once', async () => {
  const p = await newPartner();
  const vm = await endpoint(p, 'voicemail');
  const source = path.join(dir, 'keyed.wav');
  fs.writeFileSync(source, tone('wav', 1));
  const send = () =>
    patchbay(
      '--token',
      instance().token,
      'media',
      'record',
      '--endpoint',
      vm.endpoint_sid,
      '--idempotency-key',
      `cli-${vm.endpoint_sid}`,
      source,
    );
  const first = await send();
  expect(first.code).toBe(0);
  const again = await send();
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout).file_sid).toBe(JSON.parse(first.stdout).file_sid);
}, 60000);

test("errors are the API's, e.g. a partner token is refused", async () => {
  const p = await newPartner();
  const flexml = await endpoint(p, 'flexml');
  const source = path.join(dir, 'x.wav');
  fs.writeFileSync(source, tone('wav', 1));
  const refused = await patchbay('--token', p.token, 'media', 'record', '--endpoint', flexml.endpoint_sid, source);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/HTTP 403: Forbidden/);
  const wrongType = await patchbay(
    '--token',
    instance().token,
    'media',
    'record',
    '--endpoint',
    (await endpoint(p, 'mediator')).endpoint_sid,
    source,
  );
  expect(wrongType.stderr).toMatch(/HTTP 422[\s\S]*endpoint_sid: a mediator endpoint does not record/);
});
