import { fieldType, isSelectable, storeField } from '@patchbay/query';
import { CALL_RECORDS, MESSAGE_RECORDS } from '../../src/domain/record-kinds';

test('every field of a kind is filterable, sortable and selectable, with its filter type', () => {
  for (const kind of [CALL_RECORDS, MESSAGE_RECORDS]) {
    for (const name of kind.fields.names) {
      expect(fieldType(kind.spec, name)).toBeDefined();
      expect(isSelectable(kind.spec, name)).toBe(true);
    }
  }
  expect(fieldType(CALL_RECORDS.spec, 'stir_attest')).toBe('string');
  expect(fieldType(CALL_RECORDS.spec, 'trunk_group_sid_src')).toBe('uuid');
  expect(fieldType(CALL_RECORDS.spec, 'transcoded')).toBe('boolean');
  expect(fieldType(MESSAGE_RECORDS.spec, 'date_changed')).toBe('date');
  expect(fieldType(MESSAGE_RECORDS.spec, 'number_group_dst')).toBe('string');
});

test('decimal fields are filtered and sorted on their numeric copy', () => {
  expect(storeField(CALL_RECORDS.spec, 'price_lcr_dst')).toBe('numeric.price_lcr_dst');
  expect(storeField(CALL_RECORDS.spec, 'duration_billing')).toBe('numeric.duration_billing');
  expect(storeField(MESSAGE_RECORDS.spec, 'passthrough_price')).toBe('numeric.passthrough_price');
  expect(storeField(MESSAGE_RECORDS.spec, 'message')).toBe('message');
});

test('cursor orders: calls by date_stop; messages by date_insert or date_stop, which may be null', () => {
  expect(CALL_RECORDS.spec.cursor).toEqual({ orderFields: ['date_stop'], nullable: [] });
  expect(MESSAGE_RECORDS.spec.cursor).toEqual({ orderFields: ['date_insert', 'date_stop'], nullable: ['date_stop'] });
  expect(MESSAGE_RECORDS.spec.countable).toBe(false);
});
