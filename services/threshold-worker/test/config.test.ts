import { Type } from '@sinclair/typebox';
import { CommonConfig, loadConfig } from '@patchbay/platform';
import { ThresholdWorkerConfig, thresholdWorkerSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  thresholdWorkerSettings(loadConfig(Type.Object({ ...CommonConfig, ...ThresholdWorkerConfig }), env));

test('thresholdWorkerSettings: THRESHOLD_SWEEP_INTERVAL seconds as milliseconds, the bus timeout as given', () => {
  expect(settingsOf({})).toEqual({ intervalMs: 300_000, busTimeoutMs: 10_000 });
  expect(settingsOf({ THRESHOLD_SWEEP_INTERVAL: '5', BUS_TIMEOUT_MS: '2500' })).toEqual({
    intervalMs: 5000,
    busTimeoutMs: 2500,
  });
  expect(() => settingsOf({ THRESHOLD_SWEEP_INTERVAL: '0' })).toThrow(/THRESHOLD_SWEEP_INTERVAL/);
});
