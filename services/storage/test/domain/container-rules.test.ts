import { UnprocessableError } from '@patchbay/contracts';
import {
  CONTAINER_DEFAULTS,
  checkContainerRules,
  containerStatus,
  thresholdReached,
  uniqueKey,
} from '../../src/domain/container-rules';
import type { ContainerSettings } from '../../src/domain/documents';

const container = (over: Partial<ContainerSettings> = {}): ContainerSettings => ({ ...CONTAINER_DEFAULTS, ...over });
const fieldsOf = (c: ContainerSettings): Array<string | null> => {
  try {
    checkContainerRules(c);
    return [];
  } catch (err) {
    return (err as UnprocessableError).errors.map((e) => e.field);
  }
};

describe('container rules', () => {
  test('the defaults pass', () => {
    expect(fieldsOf(container())).toEqual([]);
  });

  test('thresholds at most the quotas; targets below their thresholds and never without them', () => {
    expect(fieldsOf(container({ threshold_files: 101 }))).toEqual(['threshold_files']);
    expect(fieldsOf(container({ threshold_bytes: CONTAINER_DEFAULTS.quota_bytes + 1 }))).toEqual(['threshold_bytes']);
    expect(fieldsOf(container({ threshold_files: 10, threshold_files_target: 10 }))).toEqual([
      'threshold_files_target',
    ]);
    expect(fieldsOf(container({ threshold_bytes_target: 5 }))).toEqual(['threshold_bytes_target']);
    expect(fieldsOf(container({ threshold_files: 10, threshold_files_target: 9 }))).toEqual([]);
  });

  test('an action needs a threshold; delete_lru needs the target of each threshold set', () => {
    expect(fieldsOf(container({ threshold_action: 'reject' }))).toEqual(['threshold_action']);
    expect(fieldsOf(container({ threshold_action: 'delete_lru', threshold_files: 10 }))).toEqual([
      'threshold_files_target',
    ]);
    expect(
      fieldsOf(container({ threshold_action: 'delete_lru', threshold_files: 10, threshold_files_target: 5 })),
    ).toEqual([]);
  });

  test(
    'external attributes exactly for external containers; no ' +
      'classification both allowed and blocked; every problem at once',
    () => {
      expect(fieldsOf(container({ type: 'aws_s3' }))).toEqual(['external_attributes']);
      expect(fieldsOf(container({ type: 'aws_s3', external_attributes: { bucket: 'b' } }))).toEqual([]);
      expect(fieldsOf(container({ external_attributes: { bucket: 'b' } }))).toEqual(['external_attributes']);
      expect(
        fieldsOf(container({ allowed_classifications: ['media', 'document'], blocked_classifications: ['media'] })),
      ).toEqual(['blocked_classifications']);
      expect(
        fieldsOf(
          container({
            threshold_files: 101,
            threshold_action: 'reject',
            blocked_classifications: ['media'],
            allowed_classifications: ['media'],
          }),
        ),
      ).toEqual(['threshold_files', 'blocked_classifications']);
    },
  );
});

describe('derived fields', () => {
  const counts = { total_files: 25, total_bytes: 0, threshold_total_files: 5, threshold_total_bytes: 0 };
  test('available percentages from the counters; null for a threshold not set', () => {
    expect(containerStatus({ ...container({ threshold_files: 10 }), ...counts })).toEqual({
      available_bytes_percent: 100,
      available_files_percent: 75,
      threshold_available_bytes_percent: null,
      threshold_available_files_percent: 50,
    });
  });

  test('a threshold is reached at its value, by either count', () => {
    expect(
      thresholdReached({
        threshold_files: 5,
        threshold_bytes: null,
        threshold_total_files: 5,
        threshold_total_bytes: 0,
      }),
    ).toBe(true);
    expect(
      thresholdReached({
        threshold_files: 5,
        threshold_bytes: 100,
        threshold_total_files: 4,
        threshold_total_bytes: 99,
      }),
    ).toBe(false);
    expect(
      thresholdReached({
        threshold_files: null,
        threshold_bytes: 100,
        threshold_total_files: 1e6,
        threshold_total_bytes: 100,
      }),
    ).toBe(true);
  });

  test('the unique key set tells scopes and every key apart', () => {
    const keys = {
      integer_key_1: 1,
      integer_key_2: null,
      string_key_1: 'a',
      string_key_2: null,
      string_key_3: null,
      string_key_4: null,
    };
    expect(uniqueKey('c1', keys)).toBe(uniqueKey('c1', { ...keys }));
    expect(uniqueKey('c1', keys)).not.toBe(uniqueKey('c2', keys));
    expect(uniqueKey('c1', keys)).not.toBe(uniqueKey('c1', { ...keys, string_key_2: 'a', string_key_1: null }));
    // Stored in unique_key: the scope, then the integer keys, then the string keys (contracts' key-fields.ts).
    expect(uniqueKey('c1', keys)).toBe('["c1",1,null,"a",null,null,null]');
  });
});
