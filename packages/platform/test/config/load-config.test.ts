import { Type } from '@sinclair/typebox';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { CommonConfig } from '../../src/config/common';

const schema = Type.Object({
  ...CommonConfig,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  FLAG: Type.Boolean({ default: false }),
});

describe('loadConfig', () => {
  test('applies defaults, coerces strings, and freezes the result', () => {
    const config = loadConfig(schema, { PORT: '9090', FLAG: 'true', NATS_URL: 'nats://127.0.0.1:4222' });
    expect(config).toMatchObject({
      PORT: 9090,
      FLAG: true,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      NATS_URL: 'nats://127.0.0.1:4222',
      OPS_PORT: 0,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('empty variables take their default', () => {
    expect(loadConfig(schema, { PORT: '', NATS_URL: '' }).PORT).toBe(8080);
  });

  test('start-up fails listing every bad key at once', () => {
    let caught: unknown;
    try {
      loadConfig(schema, { PORT: 'eighty', LOG_LEVEL: 'loud', NATS_URL: 'http://wrong', MONGODB_URL: 'postgres://x' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const key of ['PORT', 'LOG_LEVEL', 'NATS_URL', 'MONGODB_URL']) expect(problems).toContain(key);
    expect(problems).toContain('"eighty"');
  });

  test('OPS_PORT takes a port number or `auto`, and nothing else', () => {
    expect(loadConfig(schema, { OPS_PORT: '9091' }).OPS_PORT).toBe(9091);
    expect(loadConfig(schema, { OPS_PORT: 'auto' }).OPS_PORT).toBe('auto');
    expect(() => loadConfig(schema, { OPS_PORT: 'sometimes' })).toThrow(/OPS_PORT: .*"sometimes"/);
    expect(() => loadConfig(schema, { OPS_PORT: '70000' })).toThrow(/OPS_PORT/);
  });

  test('MONGODB_DB_PREFIX defaults to patchbay and takes only what fits a database name', () => {
    expect(loadConfig(schema, {}).MONGODB_DB_PREFIX).toBe('patchbay');
    expect(loadConfig(schema, { MONGODB_DB_PREFIX: 'acme-prod_2' }).MONGODB_DB_PREFIX).toBe('acme-prod_2');
    for (const bad of ['a.b', 'a/b', 'a b', 'x'.repeat(39)])
      expect(() => loadConfig(schema, { MONGODB_DB_PREFIX: bad })).toThrow(/MONGODB_DB_PREFIX/);
  });

  test('keys outside the schema are not read', () => {
    const config = loadConfig(schema, { SOMETHING_ELSE: 'x' }) as Record<string, unknown>;
    expect(config.SOMETHING_ELSE).toBeUndefined();
  });
});
