import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { ConfirmButton } from '../components/confirm-button';
import { ProblemBanner } from '../components/field';
import { Pager } from '../components/pager';
import { pageStatus } from '../format';
import { editable } from '../endpoint-rules';
import { otherMessages, problemOf, type Problem } from '../errors';
import { usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';
import { EndpointForm } from './endpoint-form';

type Endpoint = Schemas['Endpoint'];
const PAGE = 10;

const address = (a: Schemas['EndpointAddress']) => `${a.ip}:${a.port}/${a.transport} (${a.direction})`;

/** Endpoints: a page at a time with type and addresses; create by type, edit what may change, delete. */
export function EndpointsView({ session }: { session: Session }) {
  const [editing, setEditing] = useState<Endpoint | null>(null);
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const list = usePagedList<Endpoint>(session.token, 'endpoints', async () =>
    wholeItems<Endpoint>(await data(session.client.api.GET('/endpoints', { params: { query: { limit: PAGE } } }))),
  );
  const saved = () => {
    setEditing(null);
    setCreating(false);
    void list.reload();
  };
  const remove = async (e: Endpoint) => {
    try {
      await data(
        session.client.api.DELETE('/endpoints/{endpoint_sid}', { params: { path: { endpoint_sid: e.endpoint_sid } } }),
      );
      setProblem(null);
      void list.reload();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  return (
    <section aria-labelledby="endpoints-title">
      <h1 id="endpoints-title">Endpoints</h1>
      <button
        type="button"
        onClick={() => {
          setCreating(true);
          setEditing(null);
        }}
        disabled={creating}
      >
        New endpoint
      </button>
      {creating && <EndpointForm session={session} onSaved={saved} onCancel={() => setCreating(false)} />}
      {editing && (
        <EndpointForm
          key={editing.endpoint_sid}
          session={session}
          endpoint={editing}
          onSaved={saved}
          onCancel={() => setEditing(null)}
        />
      )}
      <ProblemBanner messages={[...otherMessages(list.problem, []), ...otherMessages(problem, [])]} />
      <table class="endpoint-list">
        <caption>Endpoints</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Addresses</th>
            <th scope="col">Capacity</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(list.page?.items ?? []).map((e) => {
            const system = e.type === 'system_gateway';
            return (
              <tr key={e.endpoint_sid} data-endpoint-sid={e.endpoint_sid}>
                <th scope="row">
                  {e.name || <em>unnamed</em>}
                  <div>
                    <code class="sid">{e.endpoint_sid}</code>
                  </div>
                </th>
                <td data-label="Type">{e.type}</td>
                <td data-label="Addresses">
                  {e.addresses.length ? (
                    <ul class="plain">
                      {e.addresses.map((a, i) => (
                        <li key={i}>{address(a)}</li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Capacity">{e.capacity}</td>
                <td class="actions">
                  {editable(e.type).top.length > 0 && (
                    <button
                      type="button"
                      onClick={() => {
                        setEditing(e);
                        setCreating(false);
                      }}
                    >
                      Edit
                    </button>
                  )}
                  <ConfirmButton
                    label="Delete"
                    question={`Delete ${e.name || e.endpoint_sid}?`}
                    onConfirm={() => remove(e)}
                    disabled={system}
                    disabledReason="The System Gateway comes with the account and cannot be deleted"
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Pager
        label="Endpoints pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? pageStatus(list.page) : 'Loading…'}
      />
    </section>
  );
}
