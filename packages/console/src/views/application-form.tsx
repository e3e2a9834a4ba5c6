import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { Field, ProblemBanner } from '../components/field';
import { otherMessages, problemOf, type Problem } from '../errors';
import type { Session } from '../session';
import { onAsync } from '../on-async';

type Application = Schemas['PushApplication'];
type Write = Schemas['PushApplicationWrite'];

/** The credential fields: written, never read back into the page. */
export const CREDENTIAL_FIELDS = ['google_credentials', 'apns_p8', 'apns_p12', 'apns_p12_password'] as const;
const TEXT_FIELDS = ['apns_key_id', 'apns_team_id', 'apns_topic', 'apns_id'] as const;
const LABELS: Record<string, string> = {
  google_credentials: 'FCM service account JSON file',
  apns_p8: 'APNs token key (.p8 file)',
  apns_p12: 'APNs certificate (.p12 file)',
  apns_p12_password: 'APNs certificate password',
  apns_key_id: 'APNs key ID',
  apns_team_id: 'APNs team ID',
  apns_topic: 'APNs topic (bundle ID)',
  apns_id: 'APNs ID',
};

/** A file's bytes as Base64 (how the API takes service-account JSON and .p12 files). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Create an application, or replace its name and credentials. Credentials are write-only: the
 * form never shows them, and a credential left empty when editing stays as it is.
 */
export function ApplicationForm(props: {
  session: Session;
  application?: Application;
  onSaved: (a: Application) => void;
  onCancel: () => void;
}) {
  const existing = props.application;
  const formId = existing ? 'application-edit' : 'application-create';
  const [name, setName] = useState(existing?.name ?? '');
  const [text, setText] = useState<Record<string, string>>(
    existing ? Object.fromEntries(TEXT_FIELDS.map((k) => [k, existing[k] ?? ''])) : {},
  );
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const readFile = async (k: string, file: File | undefined) => {
    if (!file) return;
    const value = k === 'apns_p8' ? await file.text() : await base64Of(file);
    setSecrets({ ...secrets, [k]: value });
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Write = { name };
    for (const k of TEXT_FIELDS) if (text[k] !== undefined) body[k] = text[k] || null;
    for (const k of CREDENTIAL_FIELDS) if (secrets[k]) body[k] = secrets[k];
    setBusy(true);
    try {
      const saved = existing
        ? await data(
            props.session.client.api.PATCH('/push/applications/{application_sid}', {
              params: { path: { application_sid: existing.application_sid } },
              body,
            }),
          )
        : await data(props.session.client.api.POST('/push/applications', { body }));
      setSecrets({});
      props.onSaved(saved);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      id={formId}
      class="application-form"
      onSubmit={onAsync(submit)}
      aria-label={existing ? `Edit application ${existing.name}` : 'New application'}
    >
      <h2>{existing ? `Edit ${existing.name}` : 'New application'}</h2>
      <Field form={formId} label="Name" name="name" problem={problem}>
        {(id, d) => (
          <input id={id} value={name} required aria-describedby={d} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      {CREDENTIAL_FIELDS.map((k) => (
        <Field
          key={k}
          form={formId}
          label={LABELS[k]}
          name={k}
          problem={problem}
          hint={existing ? 'Write-only: leave empty to keep the current one.' : 'Write-only: it is never shown again.'}
        >
          {(id, d) =>
            k === 'apns_p12_password' ? (
              <input
                id={id}
                type="password"
                autocomplete="new-password"
                aria-describedby={d}
                value={secrets[k] ?? ''}
                onInput={(e) => setSecrets({ ...secrets, [k]: e.currentTarget.value })}
              />
            ) : (
              <input
                id={id}
                type="file"
                name={k}
                aria-describedby={d}
                onChange={(e) => void readFile(k, e.currentTarget.files?.[0])}
              />
            )
          }
        </Field>
      ))}
      {TEXT_FIELDS.map((k) => (
        <Field key={k} form={formId} label={LABELS[k]} name={k} problem={problem}>
          {(id, d) => (
            <input
              id={id}
              value={text[k] ?? ''}
              aria-describedby={d}
              onInput={(e) => setText({ ...text, [k]: e.currentTarget.value })}
            />
          )}
        </Field>
      ))}
      <ProblemBanner messages={otherMessages(problem, ['name', ...CREDENTIAL_FIELDS, ...TEXT_FIELDS])} />
      <div class="buttons">
        <button type="submit" disabled={busy}>
          {existing ? 'Save application' : 'Create application'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
