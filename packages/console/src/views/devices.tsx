import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { ConfirmButton } from '../components/confirm-button';
import { Field, ProblemBanner } from '../components/field';
import { Pager } from '../components/pager';
import { pageStatus } from '../format';
import { otherMessages, problemOf, type Problem } from '../errors';
import { usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';
import { onAsync } from '../on-async';
import { choice } from '../choice';

type Device = Schemas['PushDevice'];
const DEVICE_TYPES: readonly Device['type'][] = ['android', 'ios', 'web'];
const ENVIRONMENTS: readonly Device['environment'][] = ['production', 'development'];
type SendResult = Schemas['PushSendResult'];
const PAGE = 10;

/** An application's devices (a page at a time), adding one, and a test notification to those ticked. */
export function DevicesPanel(props: { session: Session; application: Schemas['PushApplication'] }) {
  const { session, application } = props;
  const filter = `application_sid eq "${application.application_sid}"`;
  const list = usePagedList<Device>(session.token, filter, async () =>
    wholeItems<Device>(
      await data(session.client.api.GET('/push/devices', { params: { query: { filter, limit: PAGE } } })),
    ),
  );
  const [picked, setPicked] = useState<string[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const remove = async (d: Device) => {
    try {
      await data(
        session.client.api.DELETE('/push/devices/{device_sid}', { params: { path: { device_sid: d.device_sid } } }),
      );
      setPicked(picked.filter((p) => p !== d.device_sid));
      setProblem(null);
      void list.reload();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  const devices = list.page?.items ?? [];
  return (
    <section class="devices" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices of {application.name}</h2>
      <NewDevice
        session={session}
        application={application}
        onCreated={(d) => {
          setPicked([...picked, d.device_sid]);
          void list.reload();
        }}
      />
      <ProblemBanner messages={[...otherMessages(list.problem, []), ...otherMessages(problem, [])]} />
      <table class="device-list">
        <caption>Devices</caption>
        <thead>
          <tr>
            <th scope="col">Send to</th>
            <th scope="col">Device</th>
            <th scope="col">Type</th>
            <th scope="col">Environment</th>
            <th scope="col">Token</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {devices.length === 0 && !list.busy && (
            <tr>
              <td colSpan={6}>No devices.</td>
            </tr>
          )}
          {devices.map((d) => (
            <tr key={d.device_sid} data-device-sid={d.device_sid}>
              <td data-label="Send to">
                <input
                  type="checkbox"
                  id={`pick-${d.device_sid}`}
                  checked={picked.includes(d.device_sid)}
                  onChange={(e) =>
                    setPicked(
                      e.currentTarget.checked ? [...picked, d.device_sid] : picked.filter((p) => p !== d.device_sid),
                    )
                  }
                />
              </td>
              <th scope="row">
                <label for={`pick-${d.device_sid}`}>
                  <code class="sid">{d.device_sid}</code>
                </label>
              </th>
              <td data-label="Type">{d.type}</td>
              <td data-label="Environment">{d.environment}</td>
              <td class="token" data-label="Token" title={d.token}>
                {d.token.length > 24 ? `${d.token.slice(0, 24)}…` : d.token}
              </td>
              <td class="actions">
                <ConfirmButton label="Delete" question="Delete this device?" onConfirm={() => remove(d)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="Devices pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? (list.page.count ? pageStatus(list.page) : 'none') : 'Loading…'}
      />
      <TestNotification session={session} recipients={picked} />
    </section>
  );
}

function NewDevice(props: {
  session: Session;
  application: Schemas['PushApplication'];
  onCreated: (d: Device) => void;
}) {
  const [type, setType] = useState<Device['type']>('android');
  const [token, setToken] = useState('');
  const [environment, setEnvironment] = useState<Device['environment']>('production');
  const [problem, setProblem] = useState<Problem | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const d = await data(
        props.session.client.api.POST('/push/devices', {
          body: { application_sid: props.application.application_sid, type, token: token.trim(), environment },
        }),
      );
      setToken('');
      setProblem(null);
      props.onCreated(d);
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  return (
    <form id="device-create" class="inline-form" onSubmit={onAsync(submit)} aria-label="Add a device">
      <Field form="device-create" label="Device type" name="type" problem={problem}>
        {(id, d) => (
          <select
            id={id}
            value={type}
            aria-describedby={d}
            onChange={(e) => setType(choice(DEVICE_TYPES, e.currentTarget.value, type))}
          >
            <option>android</option>
            <option>ios</option>
            <option>web</option>
          </select>
        )}
      </Field>
      <Field form="device-create" label="Push token" name="token" problem={problem}>
        {(id, d) => (
          <input
            id={id}
            value={token}
            required
            autocomplete="off"
            aria-describedby={d}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field form="device-create" label="Environment" name="environment" problem={problem}>
        {(id, d) => (
          <select
            id={id}
            value={environment}
            aria-describedby={d}
            onChange={(e) => setEnvironment(choice(ENVIRONMENTS, e.currentTarget.value, environment))}
          >
            <option>production</option>
            <option>development</option>
          </select>
        )}
      </Field>
      <button type="submit">Add device</button>
      <ProblemBanner messages={otherMessages(problem, ['type', 'token', 'environment'])} />
    </form>
  );
}

function TestNotification(props: { session: Session; recipients: string[] }) {
  const [title, setTitle] = useState('Test from the Patchbay console');
  const [body, setBody] = useState('If you can read this, push works.');
  const [result, setResult] = useState<SendResult | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      setResult(
        await data(
          props.session.client.api.POST('/push/notifications', { body: { recipients: props.recipients, title, body } }),
        ),
      );
      setProblem(null);
    } catch (err) {
      setProblem(problemOf(err));
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form id="notification" class="notification" onSubmit={onAsync(submit)} aria-label="Send a test notification">
      <h3>Send a test notification</h3>
      <p>{props.recipients.length} device(s) ticked.</p>
      <Field form="notification" label="Title" name="title" problem={problem}>
        {(id, d) => (
          <input id={id} value={title} aria-describedby={d} onInput={(e) => setTitle(e.currentTarget.value)} />
        )}
      </Field>
      <Field form="notification" label="Body" name="body" problem={problem}>
        {(id, d) => (
          <textarea id={id} value={body} aria-describedby={d} onInput={(e) => setBody(e.currentTarget.value)} />
        )}
      </Field>
      {problem && <ProblemBanner messages={otherMessages(problem, ['title', 'body'])} />}
      <button type="submit" disabled={busy || props.recipients.length === 0}>
        Send
      </button>
      {result && (
        <table class="send-results" aria-live="polite">
          <caption>
            Sent: {result.success} delivered, {result.failure} failed
          </caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(result.results).map(([sid, r]) => (
              <tr key={sid} data-device-sid={sid} class={r === 'success' ? 'ok' : 'failed'}>
                <th scope="row">
                  <code class="sid">{sid}</code>
                </th>
                <td class="result" data-label="Result">
                  {r}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}
