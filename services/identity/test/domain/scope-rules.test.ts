import { ALL_SCOPES, UnprocessableError, type Scope } from '@patchbay/contracts';
import { DEFAULT_PARTNER_SCOPES, checkGrantable, effectiveScopes } from '../../src/domain/scope-rules';

const refusal = (fn: () => void): { field: string | null; message: string } | null => {
  try {
    fn();
    return null;
  } catch (err) {
    const e = (err as UnprocessableError).errors[0];
    return { field: e.field, message: e.message };
  }
};

test('a new partner gets everything but partner administration and the operator-only scopes', () => {
  expect(DEFAULT_PARTNER_SCOPES).toContain('endpoints.manage');
  expect(DEFAULT_PARTNER_SCOPES.some((s) => s.startsWith('partners.'))).toBe(false);
  expect(DEFAULT_PARTNER_SCOPES).not.toContain('media.manage');
  expect(DEFAULT_PARTNER_SCOPES.length).toBe(ALL_SCOPES.length - 3);
});

test('only held scopes can be handed on, and the operator-only ones never to another partner', () => {
  const held: Scope[] = ['endpoints.read', 'media.manage'];
  expect(refusal(() => checkGrantable(['endpoints.read'], held, 'scopes'))).toBeNull();
  expect(refusal(() => checkGrantable(['media.manage'], held, 'scopes', 'token'))).toBeNull();
  expect(refusal(() => checkGrantable(['media.manage'], held, 'available_scopes', 'partner'))).toEqual({
    field: 'available_scopes',
    message: expect.stringContaining('operator'),
  });
  expect(refusal(() => checkGrantable(['push.read', 'endpoints.read'], held, 'scopes'))).toEqual({
    field: 'scopes',
    message: expect.stringContaining('push.read'),
  });
});

test('a token acts with what it was given, cut down to what its partner holds now', () => {
  expect(effectiveScopes(['endpoints.read', 'push.read'], ['push.read', 'sms.read'])).toEqual(['push.read']);
  expect(effectiveScopes([], ['push.read'])).toEqual([]);
});
