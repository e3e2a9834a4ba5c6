import { useEffect, useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { ConfirmButton } from '../components/confirm-button';
import { Field, ProblemBanner } from '../components/field';
import { otherMessages, problemOf, type Problem } from '../errors';
import type { Session } from '../session';
import { wholeItems } from '../whole';

type Key = Schemas['EncryptionKey'];
type Container = Schemas['Container'];

/**
 * A container's encryption keys (docs/encryption.md): which of the partner's public keys new files
 * are encrypted to, chosen by checkbox and saved on the container; registering a public key; and
 * deleting one no container names. Only public keys ever reach this page.
 */
export function ContainerKeysPanel(props: { session: Session; container: Container; onChanged: () => void }) {
  const { session, container } = props;
  const [keys, setKeys] = useState<Key[]>([]);
  const [chosen, setChosen] = useState<string[]>(container.encryption_key_sids);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');

  const load = async () => {
    try {
      const page = await data(
        session.client.api.GET('/storage/encryption_keys', { params: { query: { limit: 1000 } } }),
      );
      setKeys(wholeItems<Key>(page).items);
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  useEffect(() => void load(), [session.token]);

  const act = async (work: () => Promise<void>, done: string) => {
    try {
      await work();
      setProblem(null);
      setSaved(done);
    } catch (err) {
      setSaved(null);
      setProblem(problemOf(err));
    }
  };
  const save = () =>
    act(
      async () => {
        await data(
          session.client.api.PATCH('/storage/containers/{container_sid}', {
            params: { path: { container_sid: container.container_sid } },
            body: { encryption_key_sids: chosen },
          }),
        );
        props.onChanged();
      },
      chosen.length ? `New files are encrypted to ${chosen.length} key(s).` : 'New files are stored unencrypted.',
    );
  const register = () =>
    act(async () => {
      const key = await data(
        session.client.api.POST('/storage/encryption_keys', {
          body: { name: name || undefined, public_key: publicKey },
        }),
      );
      setName('');
      setPublicKey('');
      await load();
      setChosen((c) => (c.length < 4 ? [...c, key.encryption_key_sid] : c));
    }, 'Key registered: save to use it here.');
  const remove = (k: Key) =>
    act(async () => {
      await data(
        session.client.api.DELETE('/storage/encryption_keys/{encryption_key_sid}', {
          params: { path: { encryption_key_sid: k.encryption_key_sid } },
        }),
      );
      setChosen((c) => c.filter((s) => s !== k.encryption_key_sid));
      await load();
    }, `Key ${k.name} deleted.`);

  return (
    <section class="container-keys" aria-labelledby="keys-title">
      <h2 id="keys-title">
        Encryption of <code>{container.container_sid}</code>
      </h2>
      <p class="hint">
        Files stored from now on are encrypted to every key checked (at most four); files stored before stay as they
        are. Patchbay holds public keys only: decrypt with <code>age -d -i</code> or{' '}
        <code>pnpm patchbay files decrypt</code>.
      </p>
      <ProblemBanner messages={otherMessages(problem, ['public_key', 'name'])} />
      {saved && (
        <p class="saved" role="status">
          {saved}
        </p>
      )}
      <table class="key-list">
        <caption>Public keys of the partner</caption>
        <thead>
          <tr>
            <th scope="col">Use</th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Fingerprint</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.length === 0 && (
            <tr>
              <td colSpan={5}>No keys.</td>
            </tr>
          )}
          {keys.map((k) => (
            <tr key={k.encryption_key_sid} data-key-sid={k.encryption_key_sid}>
              <td data-label="Use">
                <input
                  type="checkbox"
                  aria-label={`Encrypt to ${k.name}`}
                  checked={chosen.includes(k.encryption_key_sid)}
                  onChange={(e) =>
                    setChosen((c) =>
                      e.currentTarget.checked
                        ? [...c, k.encryption_key_sid]
                        : c.filter((s) => s !== k.encryption_key_sid),
                    )
                  }
                />
              </td>
              <th scope="row">{k.name}</th>
              <td data-label="Type">{k.key_type}</td>
              <td data-label="Fingerprint">
                <code class="fingerprint">{k.fingerprint}</code>
              </td>
              <td class="actions">
                <ConfirmButton label="Delete" question={`Delete key ${k.name}?`} onConfirm={() => remove(k)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => void save()}>
        Save keys
      </button>
      <form
        class="register-key"
        onSubmit={(e) => {
          e.preventDefault();
          void register();
        }}
      >
        <Field form="key" label="Key name" name="name" problem={problem}>
          {(id, describedBy, invalid) => (
            <input
              id={id}
              value={name}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          form="key"
          label="Public key"
          name="public_key"
          problem={problem}
          hint="age1… (age-keygen) or ssh-rsa AAAA… (2048 bits or more)"
        >
          {(id, describedBy, invalid) => (
            <textarea
              id={id}
              rows={2}
              value={publicKey}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setPublicKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit">Register key</button>
      </form>
    </section>
  );
}
