import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { Field, ProblemBanner } from '../components/field';
import {
  CREATABLE,
  PROPERTIES,
  editable,
  hasAddresses,
  type EndpointType,
  type WritableProperty,
} from '../endpoint-rules';
import { fieldMessages, otherMessages, problemOf, type Problem } from '../errors';
import type { Session } from '../session';
import { onAsync } from '../on-async';
import { choice } from '../choice';

type Endpoint = Schemas['Endpoint'];
type AddressInput = Schemas['EndpointAddressInput'];
const TRANSPORTS: readonly NonNullable<AddressInput['transport']>[] = ['udp', 'tcp', 'tls'];
const DIRECTIONS: readonly NonNullable<AddressInput['direction']>[] = ['any', 'inbound', 'outbound'];
type Properties = NonNullable<Schemas['EndpointCreate']['properties']>;

const PROPERTY_LABELS: Record<WritableProperty, string> = {
  container_sid: 'Container SID (recordings)',
  conference_endpoint_sid: 'Conference endpoint SID',
  callback_url: 'Callback URL',
  callback_method: 'Callback method',
  greeting: 'Greeting (a file’s publish_uri)',
  max_duration: 'Maximum recording length (s)',
};

const blankAddress = (): AddressInput => ({ ip: '', port: 5060, transport: 'udp', direction: 'any' });

/**
 * Create an endpoint of a chosen type with the fields that type takes, or edit one — showing only
 * what may still change for its type. The API's messages appear under the fields they name.
 */
export function EndpointForm(props: {
  session: Session;
  endpoint?: Endpoint;
  onSaved: (e: Endpoint) => void;
  onCancel: () => void;
}) {
  const existing = props.endpoint;
  const formId = existing ? 'endpoint-edit' : 'endpoint-create';
  const [type, setType] = useState<EndpointType>(existing?.type ?? 'third_party');
  const [name, setName] = useState(existing?.name ?? '');
  const [capacity, setCapacity] = useState(String(existing?.capacity ?? 0));
  const [outUser, setOutUser] = useState(existing?.out_sip_username ?? '');
  const [outPassword, setOutPassword] = useState(existing?.out_sip_password ?? '');
  const [addresses, setAddresses] = useState<AddressInput[]>(
    existing ? existing.addresses.map((a) => ({ ...a })) : [blankAddress()],
  );
  const [properties, setProperties] = useState<Properties>(
    existing ? pick(existing.properties, PROPERTIES[existing.type]) : {},
  );
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const can = existing
    ? editable(existing.type)
    : {
        top: ['name', 'capacity', ...(type === 'third_party' ? ['out_sip_username', 'out_sip_password'] : [])],
        properties: PROPERTIES[type],
        addresses: hasAddresses(type),
      };
  const setAddress = (i: number, patch: Partial<AddressInput>) =>
    setAddresses(addresses.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  const setProperty = (k: WritableProperty, v: string) => {
    const value = v === '' ? null : k === 'max_duration' ? Number(v) : v;
    // why: a computed key widens the object to an index signature; `k` is a writable property of the type.
    setProperties({ ...properties, [k]: value } as Properties);
  };

  /** The fields this form may send: for an edit, only those that may still change for the type. */
  const body = (): Schemas['EndpointUpdate'] => {
    const out: Schemas['EndpointUpdate'] = {};
    if (can.top.includes('name')) out.name = name;
    if (can.top.includes('capacity')) out.capacity = Number(capacity);
    if (can.top.includes('out_sip_username')) out.out_sip_username = outUser || null;
    if (can.top.includes('out_sip_password')) out.out_sip_password = outPassword || null;
    if (can.addresses) out.addresses = addresses;
    if (can.properties.length) out.properties = pick(properties, can.properties);
    return out;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const saved = existing
        ? await data(
            props.session.client.api.PATCH('/endpoints/{endpoint_sid}', {
              params: { path: { endpoint_sid: existing.endpoint_sid } },
              body: body(),
            }),
          )
        : await data(props.session.client.api.POST('/endpoints', { body: { ...body(), type } }));
      props.onSaved(saved);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };

  const shown = ['type', 'addresses', 'properties', ...can.top];
  return (
    <form
      id={formId}
      class="endpoint-form"
      onSubmit={onAsync(submit)}
      aria-label={existing ? `Edit endpoint ${existing.endpoint_sid}` : 'New endpoint'}
    >
      <h2>
        {existing ? (
          <>
            Edit <code>{existing.endpoint_sid}</code>
          </>
        ) : (
          'New endpoint'
        )}
      </h2>
      <Field
        form={formId}
        label="Type"
        name="type"
        problem={problem}
        hint={existing ? 'The type cannot change after creation.' : undefined}
      >
        {(id, d) => (
          <select
            id={id}
            value={type}
            disabled={!!existing}
            aria-describedby={d}
            onChange={(e) => {
              const t = choice(existing ? [existing.type] : CREATABLE, e.currentTarget.value, type);
              setType(t);
              setProperties({});
              setAddresses(hasAddresses(t) ? [blankAddress()] : []);
            }}
          >
            {(existing ? [existing.type] : CREATABLE).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      {can.top.includes('name') && (
        <Field form={formId} label="Name" name="name" problem={problem}>
          {(id, d) => (
            <input id={id} value={name} aria-describedby={d} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
      )}
      {can.top.includes('capacity') && (
        <Field form={formId} label="Capacity (simultaneous inbound calls)" name="capacity" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              type="number"
              min={0}
              step={1}
              value={capacity}
              aria-describedby={d}
              onInput={(e) => setCapacity(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {can.top.includes('out_sip_username') && (
        <Field form={formId} label="Outbound SIP username" name="out_sip_username" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              value={outUser}
              autocomplete="off"
              aria-describedby={d}
              onInput={(e) => setOutUser(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {can.top.includes('out_sip_password') && (
        <Field form={formId} label="Outbound SIP password" name="out_sip_password" problem={problem}>
          {(id, d) => (
            <input
              id={id}
              type="password"
              autocomplete="new-password"
              value={outPassword}
              aria-describedby={d}
              onInput={(e) => setOutPassword(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {can.addresses && (
        <fieldset class="addresses">
          <legend>Addresses</legend>
          {addresses.map((a, i) => (
            <div class="address" key={i}>
              <Field form={formId} label={`IP or host ${i + 1}`} name={`addresses.${i}.ip`} problem={problem}>
                {(id, d) => (
                  <input
                    id={id}
                    value={a.ip}
                    required
                    aria-describedby={d}
                    onInput={(e) => setAddress(i, { ip: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field form={formId} label="Port" name={`addresses.${i}.port`} problem={problem}>
                {(id, d) => (
                  <input
                    id={id}
                    type="number"
                    min={1}
                    max={65535}
                    value={a.port ?? 5060}
                    aria-describedby={d}
                    onInput={(e) => setAddress(i, { port: Number(e.currentTarget.value) })}
                  />
                )}
              </Field>
              <Field form={formId} label="Transport" name={`addresses.${i}.transport`} problem={problem}>
                {(id, d) => (
                  <select
                    id={id}
                    value={a.transport ?? 'udp'}
                    aria-describedby={d}
                    onChange={(e) => setAddress(i, { transport: choice(TRANSPORTS, e.currentTarget.value, 'udp') })}
                  >
                    <option>udp</option>
                    <option>tcp</option>
                    <option>tls</option>
                  </select>
                )}
              </Field>
              <Field form={formId} label="Direction" name={`addresses.${i}.direction`} problem={problem}>
                {(id, d) => (
                  <select
                    id={id}
                    value={a.direction ?? 'any'}
                    aria-describedby={d}
                    onChange={(e) => setAddress(i, { direction: choice(DIRECTIONS, e.currentTarget.value, 'any') })}
                  >
                    <option>any</option>
                    <option>inbound</option>
                    <option>outbound</option>
                  </select>
                )}
              </Field>
              <button
                type="button"
                onClick={() => setAddresses(addresses.filter((_, j) => j !== i))}
                aria-label={`Remove address ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          {fieldMessages(problem, 'addresses').map((m) => (
            <p key={m} class="field-error" data-field="addresses" role="alert">
              {m}
            </p>
          ))}
          <button type="button" onClick={() => setAddresses([...addresses, blankAddress()])}>
            Add address
          </button>
        </fieldset>
      )}
      {can.properties.map((k) => (
        <Field key={k} form={formId} label={PROPERTY_LABELS[k]} name={`properties.${k}`} problem={problem}>
          {(id, d) =>
            k === 'callback_method' ? (
              <select
                id={id}
                value={properties.callback_method ?? 'POST'}
                aria-describedby={d}
                onChange={(e) => setProperty(k, e.currentTarget.value)}
              >
                <option>POST</option>
                <option>GET</option>
              </select>
            ) : k === 'max_duration' ? (
              <input
                id={id}
                type="number"
                min={1}
                value={String(properties[k] ?? '')}
                aria-describedby={d}
                onInput={(e) => setProperty(k, e.currentTarget.value)}
              />
            ) : (
              <input
                id={id}
                type="text"
                value={String(properties[k] ?? '')}
                aria-describedby={d}
                onInput={(e) => setProperty(k, e.currentTarget.value)}
              />
            )
          }
        </Field>
      ))}
      <ProblemBanner messages={otherMessages(problem, shown)} />
      <div class="buttons">
        <button type="submit" disabled={busy}>
          {existing ? 'Save changes' : 'Create endpoint'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function pick(from: Record<string, unknown>, keys: readonly string[]): Properties {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  // why: `out` holds only `keys`, the writable properties of the type, copied from an endpoint's own.
  return out as Properties;
}
