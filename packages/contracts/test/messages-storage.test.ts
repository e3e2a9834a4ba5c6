import { compileValidator } from '../src/validate';
import { StorageEvents, StorageJobs, StorageRequests, UploadCommitRequestSchema } from '../src/messages/storage';
import {
  ProbeRequestSchema,
  TranscoderEvents,
  TranscoderJobs,
  TranscoderRequests,
  TranscodingDoneEventSchema,
  UploadJobSchema,
} from '../src/messages/transcoder';
import { Subjects } from '../src/subjects';

const principal = { partner_sid: 'p', login: 'l', scopes: ['storage.manage'], token_sid: null };

test('every storage and transcoder subject has its message schemas; file events too', () => {
  expect([...Object.keys(StorageRequests), ...Object.keys(StorageJobs)].sort()).toEqual(
    Object.values(Subjects.storage).sort(),
  );
  expect([...Object.keys(TranscoderRequests), ...Object.keys(TranscoderJobs)].sort()).toEqual(
    Object.values(Subjects.transcoder).sort(),
  );
  expect(Object.keys(StorageEvents).sort()).toEqual(
    [Subjects.events.fileCreated, Subjects.events.fileDeleted, Subjects.events.fileUpdated].sort(),
  );
  expect(Object.keys(TranscoderEvents).sort()).toEqual(
    Object.values(Subjects.events)
      .filter((s) => s.startsWith('evt.file.transcoding.'))
      .sort(),
  );
});

test('upload commit: size a whole number of bytes, head a string; a refusal names the field', () => {
  const check = compileValidator(UploadCommitRequestSchema);
  expect(check({ principal, file_sid: 'f', size: 10, head: '' })).toMatchObject({ size: 10 });
  expect(() => check({ principal, file_sid: 'f', size: -1, head: '' })).toThrow(
    expect.objectContaining({ errors: [expect.objectContaining({ field: 'size' })] }),
  );
  expect(() => check({ principal, file_sid: 'f', size: 1 })).toThrow();
});

test('transcoder messages: the job and the probe as storage sends them; a reported result needs its source', () => {
  expect(
    compileValidator(UploadJobSchema)({
      file_sid: 'f',
      partner_sid: 'p',
      blob_key: 'files/p/f',
      source_format: null,
      target: 'mp3',
      bitrate: 64,
    }),
  ).toMatchObject({ target: 'mp3' });
  expect(() =>
    compileValidator(UploadJobSchema)({
      file_sid: 'f',
      partner_sid: 'p',
      blob_key: '',
      source_format: null,
      target: 'mp3',
      bitrate: null,
    }),
  ).toThrow();
  expect(compileValidator(ProbeRequestSchema)({ blob_key: 'k', format: null })).toEqual({
    blob_key: 'k',
    format: null,
  });
  const done = {
    file_sid: 'f',
    source_blob_key: 'files/p/f',
    blob_key: 'files/p/f.mp3.n',
    file_bytes: 3,
    content_format: 'mp3',
    mime_type: 'audio/mpeg',
    content_duration: 1,
    content_bitrate: null,
  };
  expect(compileValidator(TranscodingDoneEventSchema)(done)).toEqual(done);
  const { source_blob_key: _source, ...orphan } = done;
  expect(() => compileValidator(TranscodingDoneEventSchema)(orphan)).toThrow();
});

test('events are checked for what consumers use only: a field added later still passes', () => {
  const check = compileValidator(StorageEvents[Subjects.events.fileUpdated].payload);
  expect(check({ file_sid: 'f', partner_sid: 'p', file_access_name: 'a.mp3', shoe_size: 44 })).toMatchObject({
    file_sid: 'f',
  });
  expect(() => check({ partner_sid: 'p' })).toThrow();
});
