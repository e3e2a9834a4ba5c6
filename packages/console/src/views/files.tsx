import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { AudioPlayer } from '../components/audio-player';
import { ConfirmButton } from '../components/confirm-button';
import { CopyLink } from '../components/copy-link';
import { ProblemBanner } from '../components/field';
import { Pager } from '../components/pager';
import { UploadForm } from '../components/upload-form';
import { otherMessages, problemOf, type Problem } from '../errors';
import { bytes, filterText, provider, when, pageStatus } from '../format';
import { usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';

type File = Schemas['File'];
const PAGE = 10;

/** Audio the browser can play from its public link: never an encrypted file (its bytes are an age file). */
const playable = (f: File) =>
  !f.encryption && f.publish !== 'no' && !!f.publish_uri && (f.type === 'audio' || f.mime_type.startsWith('audio/'));

/** The files of one container, a page at a time, filtered by name; upload, play, copy link, delete. */
export function FilesPanel(props: { session: Session; container: Schemas['Container']; onChanged: () => void }) {
  const { session, container } = props;
  const [nameFilter, setNameFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [playing, setPlaying] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const filter =
    `container_sid eq ` + `"${container.container_sid}"${applied ? ` and name ilike "%${filterText(applied)}%"` : ''}`;
  const list = usePagedList<File>(session.token, filter, async () =>
    wholeItems<File>(
      await data(
        session.client.api.GET('/storage/files', {
          params: { query: { filter, limit: PAGE, order: 'date_created desc' } },
        }),
      ),
    ),
  );
  const changed = () => {
    void list.reload();
    props.onChanged();
  };
  const remove = async (f: File) => {
    try {
      await data(
        session.client.api.DELETE('/storage/files/{file_sid}', { params: { path: { file_sid: f.file_sid } } }),
      );
      setProblem(null);
      changed();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  const files = list.page?.items ?? [];
  return (
    <section class="files" aria-labelledby="files-title">
      <h2 id="files-title">
        Files of <code>{container.container_sid}</code>
      </h2>
      {container.type === 'internal' ? (
        <UploadForm session={session} container={container} onUploaded={changed} />
      ) : (
        <p class="external-note" role="note">
          Stored in {provider(container.type)}: files arrive as recordings; they cannot be uploaded here.
        </p>
      )}
      <form
        class="filter"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(nameFilter.trim());
        }}
      >
        <label for="file-name-filter">Name contains</label>
        <input
          id="file-name-filter"
          type="search"
          value={nameFilter}
          onInput={(e) => setNameFilter(e.currentTarget.value)}
        />
        <button type="submit">Filter</button>
      </form>
      <ProblemBanner messages={[...otherMessages(list.problem, []), ...otherMessages(problem, [])]} />
      <table class="file-list">
        <caption>Files{applied && ` whose name contains “${applied}”`}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Size</th>
            <th scope="col">Published</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {files.length === 0 && !list.busy && (
            <tr>
              <td colSpan={6}>No files.</td>
            </tr>
          )}
          {files.map((f) => [
            <tr key={f.file_sid} data-file-sid={f.file_sid}>
              <th scope="row" class="file-name">
                {f.name}
                <div>
                  <code class="sid">{f.file_sid}</code>
                </div>
              </th>
              <td data-label="Type">
                {f.mime_type}
                {f.encryption && (
                  <span class="tag" title="Stored as an age file: decrypt it with your private key">
                    encrypted
                  </span>
                )}
                {f.content_transcoding_progress !== null && f.content_transcoding_progress < 100 && (
                  <span class="tag">transcoding {f.content_transcoding_progress}%</span>
                )}
              </td>
              <td data-label="Size">{bytes(f.file_bytes)}</td>
              <td data-label="Published">{f.publish}</td>
              <td data-label="Created">{when(f.date_created)}</td>
              <td class="actions">
                {playable(f) && (
                  <button
                    type="button"
                    aria-expanded={playing === f.file_sid}
                    onClick={() => setPlaying(playing === f.file_sid ? null : f.file_sid)}
                  >
                    {playing === f.file_sid ? 'Close player' : 'Play'}
                  </button>
                )}
                {f.publish_uri && <CopyLink uri={f.publish_uri} />}
                <ConfirmButton label="Delete" question={`Delete ${f.name}?`} onConfirm={() => remove(f)} />
              </td>
            </tr>,
            playing === f.file_sid && f.publish_uri ? (
              <tr key={`${f.file_sid}-player`} class="player-row">
                <td colSpan={6}>
                  <AudioPlayer uri={f.publish_uri} name={f.name} />
                </td>
              </tr>
            ) : null,
          ])}
        </tbody>
      </table>
      <Pager
        label="Files pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? (list.page.count ? pageStatus(list.page) : 'none') : 'Loading…'}
      />
    </section>
  );
}
