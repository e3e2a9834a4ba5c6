/**
 * How tests/fixtures/nedb-data was made: this script fills a running Patchbay of the NeDB era (the
 * commit before SQLite, started with `DATA_DIR=<dir> PATCHBAY_BOOTSTRAP_LOGIN=admin
 * PATCHBAY_BOOTSTRAP_PASSWORD=test-password-123 pnpm start`) through its public API with one of
 * everything the migration must keep; the data directory it leaves (stopped with SIGTERM) is the fixture.
 *
 *   tsx tests/migration/make-nedb-fixture.ts http://127.0.0.1:8080/core/v2
 */
const base = process.argv[2] ?? 'http://127.0.0.1:8080/core/v2';
const basic = `Basic ${Buffer.from('admin:test-password-123').toString('base64')}`;

async function call(method: string, path: string, body?: unknown, type = 'application/json'): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: basic, ...(body !== undefined && { 'content-type': type }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function main(): Promise<void> {
  const child = (await call('POST', '/partners', {
    name: 'Fixture child',
    login: 'fixture-child',
    password: 'fixture-password-1',
  })) as { partner_sid: string };
  const token = await call(
    'POST',
    '/oauth/token',
    'grant_type=password&username=fixture-child&password=fixture-password-1',
    'application/x-www-form-urlencoded',
  );
  const container = (await call('POST', '/storage/containers', { name: 'fixture-container' })) as {
    container_sid: string;
  };
  const file = await call(
    'POST',
    `/storage/files?container_sid=${container.container_sid}&name=hello.txt`,
    'hello from the NeDB era\n',
    'application/octet-stream',
  );
  const endpoint = await call('POST', '/endpoints', { type: 'flexml', name: 'fixture-endpoint' });
  const app = (await call('POST', '/push/applications', { name: 'fixture-app' })) as { application_sid: string };
  const device = await call('POST', '/push/devices', {
    application_sid: app.application_sid,
    type: 'android',
    token: 'fixture-device-token',
  });
  const calls = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({
      dr_sid: `00000000-0000-4000-8000-00000000010${i}`,
      date_start: new Date(Date.UTC(2024, 0, 1, 12, 0, i)).toISOString(),
      date_stop: new Date(Date.UTC(2024, 0, 1, 12, 1, i)).toISOString(),
      price: '0.01',
    }),
  ).join('\n');
  const callReport = await call('POST', '/calls/call_drs', calls, 'application/x-ndjson');
  const sms = [0, 1]
    .map((i) =>
      JSON.stringify({
        dr_sid: `00000000-0000-4000-8000-00000000020${i}`,
        type: 'sms',
        date_insert: '2024-01-02T00:00:00Z',
      }),
    )
    .join('\n');
  const smsReport = await call('POST', '/sms/message_drs', sms, 'application/x-ndjson');
  process.stdout.write(
    `${JSON.stringify({ child, token, container, file, endpoint, app, device, callReport, smsReport }, null, 2)}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
