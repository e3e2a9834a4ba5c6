import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { Pager } from '../components/pager';
import { ProblemBanner } from '../components/field';
import { UsageMeter } from '../components/usage-meter';
import { otherMessages } from '../errors';
import { bytes, provider, pageStatus } from '../format';
import { usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';
import { FilesPanel } from './files';
import { ContainerKeysPanel } from './container-keys';

type Container = Schemas['Container'];
const PAGE = 10;

/** Storage: the partner's containers with their usage, and the files of the one chosen. */
export function StorageView({ session }: { session: Session }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const list = usePagedList<Container>(session.token, 'containers', async () =>
    wholeItems<Container>(
      await data(session.client.api.GET('/storage/containers', { params: { query: { limit: PAGE } } })),
    ),
  );
  const containers = list.page?.items ?? [];
  const selected = containers.find((c) => c.container_sid === chosen) ?? null;
  return (
    <section aria-labelledby="storage-title">
      <h1 id="storage-title">Storage</h1>
      <ProblemBanner messages={otherMessages(list.problem, [])} />
      <table class="containers">
        <caption>Containers</caption>
        <thead>
          <tr>
            <th scope="col">Container</th>
            <th scope="col">Files</th>
            <th scope="col">Bytes</th>
            <th scope="col">Threshold action</th>
            <th scope="col">
              <span class="sr-only">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {containers.map((c) => (
            <tr key={c.container_sid} data-container-sid={c.container_sid} aria-selected={c.container_sid === chosen}>
              <th scope="row">
                <code class="sid">{c.container_sid}</code>
                <div>
                  {c.name}
                  {c.is_default && <span class="tag">default</span>}
                  {c.encryption_key_sids.length > 0 && <span class="tag">encrypted</span>}
                </div>
                <div class="provider">{provider(c.type)}</div>
              </th>
              {c.quota_files === null || c.quota_bytes === null ? (
                // External storage: no quota, no threshold (decisions §41); the counts alone.
                <>
                  <td class="count" data-label="Files">
                    {c.total_files}
                  </td>
                  <td class="count" data-label="Bytes">
                    {bytes(c.total_bytes)}
                  </td>
                  <td data-label="Threshold action">—</td>
                </>
              ) : (
                <>
                  <td class="usage-cell">
                    <UsageMeter
                      label="Files"
                      value={c.total_files}
                      quota={c.quota_files}
                      threshold={c.threshold_files}
                      format={(n) => String(n)}
                    />
                  </td>
                  <td class="usage-cell">
                    <UsageMeter
                      label="Bytes"
                      value={c.total_bytes}
                      quota={c.quota_bytes}
                      threshold={c.threshold_bytes}
                      format={bytes}
                    />
                  </td>
                  <td data-label="Threshold action">{c.threshold_action}</td>
                </>
              )}
              <td class="actions">
                <button
                  type="button"
                  onClick={() => setChosen(c.container_sid)}
                  aria-pressed={c.container_sid === chosen}
                >
                  Files
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="Containers pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? pageStatus(list.page) : 'Loading…'}
      />
      {selected && (
        <FilesPanel
          key={selected.container_sid}
          session={session}
          container={selected}
          onChanged={() => void list.reload()}
        />
      )}
      {selected && (
        <ContainerKeysPanel
          key={`keys-${selected.container_sid}`}
          session={session}
          container={selected}
          onChanged={() => void list.reload()}
        />
      )}
    </section>
  );
}
