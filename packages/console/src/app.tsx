import { useState } from 'preact/hooks';
import { signOut, type Session } from './session';
import { SignIn } from './views/sign-in';
import { StorageView } from './views/storage';
import { EndpointsView } from './views/endpoints';
import { PushView } from './views/push';
import { RecordsView } from './views/records';
import { OverviewView } from './views/overview';
import { onAsync } from './on-async';

const VIEWS = {
  overview: 'Overview',
  storage: 'Storage',
  endpoints: 'Endpoints',
  push: 'Push',
  records: 'Records',
} as const;
type ViewName = keyof typeof VIEWS;
const VIEW_ORDER: readonly ViewName[] = ['overview', 'storage', 'endpoints', 'push', 'records'];

/** The console: sign-in until there is a session (held in memory only), then one view at a time, the overview first. */
export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [view, setView] = useState<ViewName>('overview');
  // Choosing a view (again) shows it afresh: its lists are loaded anew.
  const [visit, setVisit] = useState(0);
  const open = (v: ViewName) => {
    setView(v);
    setVisit(visit + 1);
  };
  if (!session)
    return (
      <SignIn
        onSession={(s) => {
          setSession(s);
          open('overview');
        }}
      />
    );
  const out = async () => {
    await signOut(session);
    setSession(null);
  };
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Patchbay console</span>
        <nav aria-label="Views" class="tabs">
          {VIEW_ORDER.map((v) => (
            <button
              key={v}
              type="button"
              data-view={v}
              aria-current={view === v ? 'page' : undefined}
              onClick={() => open(v)}
            >
              {VIEWS[v]}
            </button>
          ))}
        </nav>
        <span class="who" title={session.partner.partner_sid}>
          {session.partner.name || session.partner.login}
        </span>
        <button type="button" class="sign-out" onClick={onAsync(out)}>
          Sign out
        </button>
      </header>
      <main id="view" key={visit} data-view={view}>
        {view === 'overview' && <OverviewView session={session} />}
        {view === 'storage' && <StorageView session={session} />}
        {view === 'endpoints' && <EndpointsView session={session} />}
        {view === 'push' && <PushView session={session} />}
        {view === 'records' && <RecordsView session={session} />}
      </main>
    </div>
  );
}
