import { UnprocessableError } from '@patchbay/contracts';
import { checkSetAtCreation } from '../../src/domain/file-update-rules';
import type { FileDoc } from '../../src/domain/documents';

const current = {
  file_sid: 'f1',
  partner_sid: 'p1',
  container_sid: 'c1',
  type: 'audio',
  unique: false,
  content_classification: 'media',
  desired_format: 'mp3',
  desired_bitrate: 128,
} as unknown as FileDoc; // why: only the fields the rule reads matter here

function refused(sent: Record<string, unknown>): string | null {
  try {
    checkSetAtCreation(current, sent);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(UnprocessableError);
    return (err as UnprocessableError).errors[0].field;
  }
}

describe('checkSetAtCreation', () => {
  it('refuses a change of a field set at creation, naming it', () => {
    expect(refused({ unique: true })).toBe('unique');
    expect(refused({ container_sid: 'c2' })).toBe('container_sid');
    expect(refused({ type: 'file' })).toBe('type');
    expect(refused({ desired_format: 'wav' })).toBe('desired_format');
    expect(refused({ desired_bitrate: 64 })).toBe('desired_bitrate');
    expect(refused({ content_classification: 'document' })).toBe('content_classification');
    expect(refused({ partner_sid: 'p2' })).toBe('partner_sid');
  });
  it('accepts the stored values sent back, a bitrate as a string too, and fields it does not guard', () => {
    expect(refused({ ...current })).toBeNull();
    expect(refused({ desired_bitrate: '128', name: 'new', file_bytes: 1, content_duration: 3 })).toBeNull();
  });
});
