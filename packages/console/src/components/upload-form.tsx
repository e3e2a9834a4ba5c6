import { useRef, useState } from 'preact/hooks';
import type { Schemas } from '@patchbay/client';
import { otherMessages, problemOf, type Problem } from '../errors';
import { bytes } from '../format';
import { API_ROOT, type Session } from '../session';
import { uploadFile, type UploadFields } from '../upload';
import { Field, ProblemBanner } from './field';
import { onAsync } from '../on-async';
import { choice } from '../choice';

const PUBLISH: readonly NonNullable<UploadFields['publish']>[] = ['no', 'file_sid', 'file_access_name'];

/**
 * Formats a file can be stored in when it is uploaded as audio (docs/interface-notes.md,
 * Transcoding targets and bitrates).
 */
export const STORED_FORMATS = ['al', 'alaw', 'flac', 'g722', 'mp3', 'ogg', 'ul', 'ulaw', 'wav'] as const;
const BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SHOWN = ['name', 'publish', 'type', 'desired_format', 'desired_bitrate', 'data'];

/** Upload to a container: a file picker or a file dropped on the zone, the fields that matter, a progress bar. */
export function UploadForm(props: {
  session: Session;
  container: Schemas['Container'];
  onUploaded: (f: Schemas['File']) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [publish, setPublish] = useState<UploadFields['publish']>(props.container.default_file_publish);
  const [type, setType] = useState<'file' | 'audio'>('file');
  const [format, setFormat] = useState('');
  const [bitrate, setBitrate] = useState('');
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const choose = (f: File | undefined) => {
    if (f) {
      setFile(f);
      setName(f.name);
      setDone(null);
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) {
      setProblem({ message: 'choose a file', fields: { data: ['choose a file to upload'] } });
      return;
    }
    const fields: UploadFields = {
      container_sid: props.container.container_sid,
      name: name || file.name,
      publish,
      type,
    };
    if (type === 'audio' && format) fields.desired_format = format;
    if (type === 'audio' && bitrate) fields.desired_bitrate = Number(bitrate);
    setProgress({ sent: 0, total: file.size });
    setProblem(null);
    try {
      const uploaded = await uploadFile(API_ROOT, props.session.token, fields, file, (sent, total) =>
        setProgress({ sent, total }),
      );
      setDone(`Uploaded ${uploaded.name} (${uploaded.file_sid}).`);
      setFile(null);
      setName('');
      if (picker.current) picker.current.value = '';
      props.onUploaded(uploaded);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setProgress(null);
    }
  };
  return (
    <form id="upload" class="upload" onSubmit={onAsync(submit)}>
      <h3>Upload</h3>
      <div
        class={`drop-zone${over ? ' over' : ''}`}
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          choose(e.dataTransfer?.files[0]);
        }}
      >
        <Field form="upload" label="File (choose one, or drop it here)" name="data" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              ref={picker}
              type="file"
              name="data"
              aria-describedby={d}
              onChange={(e) => choose(e.currentTarget.files?.[0])}
            />
          )}
        </Field>
        {file && (
          <p class="chosen">
            {file.name} · {bytes(file.size)}
          </p>
        )}
      </div>
      <Field form="upload" label="Name" name="name" problem={problem}>
        {(id, d) => <input id={id} value={name} aria-describedby={d} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field
        form="upload"
        label="Publish"
        name="publish"
        problem={problem}
        hint="Public link by file SID or by name; “no” keeps it private."
      >
        {(id, d) => (
          <select
            id={id}
            value={publish}
            aria-describedby={d}
            onChange={(e) => setPublish(choice(PUBLISH, e.currentTarget.value, publish))}
          >
            <option value="no">no</option>
            <option value="file_sid">file_sid</option>
            <option value="file_access_name">file_access_name</option>
          </select>
        )}
      </Field>
      <Field
        form="upload"
        label="Type"
        name="type"
        problem={problem}
        hint="“audio” lets the file be transcoded on upload."
      >
        {(id, d) => (
          <select
            id={id}
            value={type}
            aria-describedby={d}
            onChange={(e) => setType(e.currentTarget.value as 'file' | 'audio')}
          >
            <option value="file">file</option>
            <option value="audio">audio</option>
          </select>
        )}
      </Field>
      {type === 'audio' && (
        <>
          <Field form="upload" label="Store as (desired_format)" name="desired_format" problem={problem}>
            {(id, d) => (
              <select id={id} value={format} aria-describedby={d} onChange={(e) => setFormat(e.currentTarget.value)}>
                <option value="">as uploaded</option>
                {STORED_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field form="upload" label="Bitrate (desired_bitrate, kbit/s)" name="desired_bitrate" problem={problem}>
            {(id, d) => (
              <select id={id} value={bitrate} aria-describedby={d} onChange={(e) => setBitrate(e.currentTarget.value)}>
                <option value="">unchanged</option>
                {BITRATES.map((b) => (
                  <option key={b} value={String(b)}>
                    {b}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
      <button type="submit" disabled={progress !== null}>
        Upload
      </button>
      {progress && (
        <div class="progress">
          <label for="upload-progress">Uploading</label>
          <progress id="upload-progress" max={progress.total || 1} value={progress.sent}>
            {Math.round((100 * progress.sent) / (progress.total || 1))}%
          </progress>
          <span>
            {bytes(progress.sent)} of {bytes(progress.total)}
          </span>
        </div>
      )}
      {done && (
        <p role="status" class="note upload-done">
          {done}
        </p>
      )}
      <ProblemBanner messages={otherMessages(problem, SHOWN)} title="Upload refused:" />
    </form>
  );
}
