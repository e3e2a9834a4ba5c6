import { ForbiddenError, UnprocessableError, type EndpointLookupReply } from '@patchbay/contracts';
import { checkPlayback, recordingTarget, type PlayableFile } from '../../src/domain/media-rules';

const endpoint = (type: EndpointLookupReply['type'], container_sid: string | null = null): EndpointLookupReply => ({
  endpoint_sid: 'e',
  partner_sid: 'p',
  type,
  container_sid,
  conference_endpoint_sid: null,
  callback_url: null,
});
const fieldOf = (fn: () => unknown): string | null | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as UnprocessableError | ForbiddenError).errors[0]?.field;
  }
};

describe('recordingTarget', () => {
  test('the Record verb (FlexML only), then the endpoint property, then the partner default', () => {
    expect(recordingTarget(endpoint('flexml', 'prop'), 'verb')).toEqual({
      container_sid: 'verb',
      chosen_by: 'record_verb',
    });
    expect(recordingTarget(endpoint('flexml', 'prop'), undefined)).toEqual({
      container_sid: 'prop',
      chosen_by: 'endpoint_property',
    });
    expect(recordingTarget(endpoint('voicemail'), undefined)).toEqual({
      container_sid: null,
      chosen_by: 'partner_default',
    });
    expect(recordingTarget(endpoint('conference', 'c'), undefined).container_sid).toBe('c');
  });

  test('types that do not record name endpoint_sid; an override on another type names container_sid', () => {
    for (const t of ['mediator', 'third_party', 'system_gateway', 'conference_playback'] as const)
      expect(fieldOf(() => recordingTarget(endpoint(t), undefined))).toBe('endpoint_sid');
    for (const t of ['conference', 'voicemail'] as const)
      expect(fieldOf(() => recordingTarget(endpoint(t), 'x'))).toBe('container_sid');
  });
});

describe('checkPlayback', () => {
  const own: PlayableFile = { partner_sid: 'p', container_sid: 'c1', published: true };
  const hidden: PlayableFile = { ...own, published: false };
  const theirs: PlayableFile = { partner_sid: 'q', container_sid: 'c9', published: true };
  const allowed = (
    t: EndpointLookupReply['type'],
    f: PlayableFile,
    by: 'uri' | 'file_sid',
    container: string | null = null,
  ) => fieldOf(() => checkPlayback(endpoint(t), f, { by, container_sid: container })) === undefined;

  test.each([
    ['flexml', own, 'uri', null, true],
    ['flexml', hidden, 'uri', null, false],
    ['flexml', theirs, 'uri', null, true],
    ['flexml', hidden, 'file_sid', null, true],
    ['flexml', theirs, 'file_sid', null, false],
    ['voicemail', own, 'uri', null, true],
    ['voicemail', hidden, 'uri', null, false],
    ['voicemail', own, 'file_sid', null, false],
    ['conference', hidden, 'file_sid', 'c1', true],
    ['conference', own, 'file_sid', 'c2', false],
    ['conference', theirs, 'uri', 'c9', false],
    ['conference_playback', own, 'file_sid', 'c1', true],
    ['conference_playback', own, 'file_sid', 'c2', false],
    ['mediator', own, 'file_sid', null, false],
    ['third_party', own, 'uri', null, false],
    ['system_gateway', own, 'uri', null, false],
  ] as const)('%s plays %j by %s (container %s): %s', (type, file, by, container, expected) => {
    expect(allowed(type, file, by, container)).toBe(expected);
  });
});
