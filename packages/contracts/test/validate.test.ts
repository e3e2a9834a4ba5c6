import { Type } from '@sinclair/typebox';
import { BadRequestError, compileValidator, PartnerCreateSchema } from '../src';

describe('compileValidator', () => {
  const validate = compileValidator(
    Type.Object(
      {
        name: Type.Optional(Type.String()),
        capacity: Type.Optional(Type.Integer({ minimum: 0 })),
        limit: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
        nested: Type.Optional(Type.Object({ port: Type.Integer() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  );

  test('numeric strings become integers; nothing else is coerced', () => {
    expect(validate({ capacity: '39984', nested: { port: '5060' } })).toEqual({
      capacity: 39984,
      nested: { port: 5060 },
    });
    expect(validate({ limit: null })).toEqual({ limit: null });
    expect(() => validate({ name: 12 })).toThrow(BadRequestError);
    expect(() => validate({ capacity: null })).toThrow(BadRequestError);
  });

  test('every bad field is named: unknown, wrong type, nested path', () => {
    try {
      validate({ colour: 'red', capacity: 'many', nested: { port: 'x' } });
      throw new Error('expected a 400');
    } catch (err) {
      const e = err as BadRequestError;
      expect(e.status).toBe(400);
      expect(e.errors.map((i) => i.field).sort()).toEqual(['capacity', 'colour', 'nested.port']);
      expect(e.errors.find((i) => i.field === 'colour')?.message).toBe('unknown field');
    }
  });

  test('missing required fields are named', () => {
    const v = compileValidator(PartnerCreateSchema);
    try {
      v({});
      throw new Error('expected a 400');
    } catch (err) {
      expect((err as BadRequestError).errors.map((i) => i.field).sort()).toEqual(['login', 'password']);
    }
  });
});
