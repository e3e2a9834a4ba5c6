import { Type } from '@sinclair/typebox';
import { CallRecordSchema, MessageRecordSchema } from '@patchbay/contracts';
import { recordFields } from '../../src/domain/record-fields';

describe("recordFields reads a kind's fields from its API schema", () => {
  const calls = recordFields(CallRecordSchema);
  const messages = recordFields(MessageRecordSchema);

  test('every field, alphabetical', () => {
    expect(calls.names).toEqual(Object.keys(CallRecordSchema.properties).sort());
    expect(calls.names).toHaveLength(49);
    expect(messages.names).toHaveLength(34);
    expect(calls.known.has('stir_verstat')).toBe(true);
    expect(calls.known.has('constructor')).toBe(false);
  });

  test('the kind of each type', () => {
    expect(calls.kinds).toMatchObject({
      dr_sid: 'secure_id',
      trunk_group_sid_dst: 'secure_id',
      date_talk: 'timestamp',
      price: 'money',
      rate_lcr_src: 'money',
      duration: 'seconds',
      transcoded: 'boolean',
      version: 'integer',
      direction: 'text',
      sipcause: 'text',
      ip_src: 'text',
    });
    expect(messages.kinds).toMatchObject({
      media_urls: 'list',
      number_group_dst: 'list',
      mcc: 'integer',
      type: 'text',
      date_changed: 'timestamp',
      passthrough_rate: 'money',
      version: 'text_or_integer',
    });
  });

  test('which fields may be null', () => {
    expect(calls.nullable.has('date_stop')).toBe(false);
    expect(calls.nullable.has('date_talk')).toBe(true);
    expect(messages.nullable.has('date_stop')).toBe(true);
    expect(messages.nullable.has('date_insert')).toBe(false);
    expect(messages.nullable.has('media_urls')).toBe(false);
  });

  test('a type records cannot store is a start-up error', () => {
    expect(() => recordFields(Type.Object({ x: Type.Number() }))).toThrow(/x/);
    expect(() => recordFields(Type.Object({ y: Type.Union([Type.String(), Type.Boolean()]) }))).toThrow(/y/);
    // A string or an integer is the one mix records store (a type the interface leaves open).
    expect(recordFields(Type.Object({ v: Type.Union([Type.String(), Type.Integer()]) })).kinds.v).toBe(
      'text_or_integer',
    );
  });
});
