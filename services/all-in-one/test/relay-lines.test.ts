import { relayedLine } from '../src/relay-lines';

test('JSON: a service log line gets the service as its first field and stays one JSON object', () => {
  const line = '{"level":30,"time":"2026-11-29T10:00:00.000Z","pid":7,"name":"file-server","msg":"listening"}';
  const out = relayedLine('file-server-2', line, 'json', false);
  expect(JSON.parse(out)).toEqual({ service: 'file-server-2', ...(JSON.parse(line) as object) });
  expect(out.startsWith('{"service":"file-server-2",')).toBe(true);
  expect(JSON.parse(relayedLine('gateway', '{}', 'json', false))).toEqual({ service: 'gateway' });
});

test('JSON: anything else a service writes becomes the msg of a line of its own, an error from stderr', () => {
  const out = JSON.parse(relayedLine('storage', 'invalid configuration: "x" is "y"', 'json', true)) as object;
  expect(out).toMatchObject({ level: 50, service: 'storage', msg: 'invalid configuration: "x" is "y"' });
  expect(JSON.parse(relayedLine('storage', '  at main.ts:1:1  ', 'json', false))).toMatchObject({ level: 30 });
});

test('readable: the line behind [service]', () => {
  expect(relayedLine('push', '[10:00:00.000] INFO: [push] started', 'pretty', false)).toBe(
    '[push] [10:00:00.000] INFO: [push] started',
  );
});
