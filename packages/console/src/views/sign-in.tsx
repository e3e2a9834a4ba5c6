import { useState } from 'preact/hooks';
import { Field, ProblemBanner } from '../components/field';
import { otherMessages, problemOf, type Problem } from '../errors';
import { sessionForToken, signIn, type Session } from '../session';
import { onAsync } from '../on-async';

/**
 * Sign in with login and password (the API's password grant), or with an access token pasted in.
 * The token is kept in memory only: a reload signs out.
 */
export function SignIn(props: { onSession: (s: Session) => void }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const attempt = async (e: Event, how: () => Promise<Session>) => {
    e.preventDefault();
    setBusy(true);
    try {
      props.onSession(await how());
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Patchbay console</h1>
      <form id="sign-in" onSubmit={onAsync((e: Event) => attempt(e, () => signIn(login, password)))}>
        <h2>Sign in</h2>
        <Field form="sign-in" label="Login" name="username" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              name="username"
              autocomplete="username"
              required
              value={login}
              aria-describedby={d}
              onInput={(e) => setLogin(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field form="sign-in" label="Password" name="password" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              name="password"
              type="password"
              autocomplete="current-password"
              required
              value={password}
              aria-describedby={d}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <form id="token-sign-in" onSubmit={onAsync((e: Event) => attempt(e, () => sessionForToken(token.trim())))}>
        <h2>…or use an access token</h2>
        <Field form="token-sign-in" label="Access token" name="token" problem={null}>
          {(id) => (
            <input
              id={id}
              name="token"
              type="password"
              autocomplete="off"
              required
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Use token
        </button>
      </form>
      <ProblemBanner messages={otherMessages(problem, ['username', 'password'])} />
      <p class="hint">The token stays in this page's memory only: reloading the page signs you out.</p>
    </main>
  );
}
