import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { ConfirmButton } from '../components/confirm-button';
import { ProblemBanner } from '../components/field';
import { Pager } from '../components/pager';
import { pageStatus } from '../format';
import { otherMessages, problemOf, type Problem } from '../errors';
import { usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';
import { ApplicationForm } from './application-form';
import { DevicesPanel } from './devices';

type Application = Schemas['PushApplication'];
const PAGE = 10;

/** Which platforms an application has credentials for (the API answers them masked; the console shows neither). */
function platforms(a: Application): string {
  const out: string[] = [];
  if (a.google_credentials) out.push('FCM');
  if (a.apns_p8) out.push('APNs (token)');
  if (a.apns_p12) out.push('APNs (certificate)');
  return out.join(', ') || 'none';
}

/** Push: applications (credentials write-only), their devices, and a test notification. */
export function PushView({ session }: { session: Session }) {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Application | null>(null);
  const [chosen, setChosen] = useState<Application | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const list = usePagedList<Application>(session.token, 'applications', async () =>
    wholeItems<Application>(
      await data(session.client.api.GET('/push/applications', { params: { query: { limit: PAGE } } })),
    ),
  );
  const saved = (a: Application) => {
    setCreating(false);
    setEditing(null);
    setChosen(a);
    void list.reload();
  };
  const remove = async (a: Application) => {
    try {
      await data(
        session.client.api.DELETE('/push/applications/{application_sid}', {
          params: { path: { application_sid: a.application_sid } },
        }),
      );
      if (chosen?.application_sid === a.application_sid) setChosen(null);
      setProblem(null);
      void list.reload();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  return (
    <section aria-labelledby="push-title">
      <h1 id="push-title">Push</h1>
      <button
        type="button"
        onClick={() => {
          setCreating(true);
          setEditing(null);
        }}
        disabled={creating}
      >
        New application
      </button>
      {creating && <ApplicationForm session={session} onSaved={saved} onCancel={() => setCreating(false)} />}
      {editing && (
        <ApplicationForm
          key={editing.application_sid}
          session={session}
          application={editing}
          onSaved={saved}
          onCancel={() => setEditing(null)}
        />
      )}
      <ProblemBanner messages={[...otherMessages(list.problem, []), ...otherMessages(problem, [])]} />
      <table class="application-list">
        <caption>Applications</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Credentials for</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(list.page?.items ?? []).map((a) => (
            <tr
              key={a.application_sid}
              data-application-sid={a.application_sid}
              aria-selected={chosen?.application_sid === a.application_sid}
            >
              <th scope="row">
                {a.name}
                <div>
                  <code class="sid">{a.application_sid}</code>
                </div>
              </th>
              <td data-label="Credentials for">{platforms(a)}</td>
              <td class="actions">
                <button
                  type="button"
                  aria-pressed={chosen?.application_sid === a.application_sid}
                  onClick={() => setChosen(a)}
                >
                  Devices
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setEditing(a);
                    setCreating(false);
                  }}
                >
                  Edit
                </button>
                <ConfirmButton label="Delete" question={`Delete ${a.name}?`} onConfirm={() => remove(a)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="Applications pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? pageStatus(list.page) : 'Loading…'}
      />
      {chosen && <DevicesPanel key={chosen.application_sid} session={session} application={chosen} />}
    </section>
  );
}
