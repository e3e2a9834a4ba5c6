import { randomInt } from 'node:crypto';
import { API, http, type TestPartner } from '../harness/api';
import type { ApiJson } from '../support/api-json';
import { until } from '../support/poll';

/** Helpers shared by the endpoint API suites (tests/api/endpoints*.test.ts). */

/** Every key of an Endpoint, in the order the API returns them (alphabetical). */
export const ENDPOINT_KEYS = [
  'addresses',
  'attributes',
  'auth_required',
  'capacity',
  'cps_limit',
  'endpoint_sid',
  'name',
  'out_sip_password',
  'out_sip_username',
  'partner_sid',
  'properties',
  'transformations',
  'type',
  'voip_token',
];
export const ADDRESS_KEYS = [
  'direction',
  'dst_port',
  'ip',
  'location_sid',
  'port',
  'priority',
  'sip_password',
  'sip_username',
  'srtp',
  'subnet_mask',
  'transport',
];

/**
 * The exact 409 of docs/interface-notes.md, Status codes and errors, for a second
 * auth_required=false endpoint on one IP and port.
 */
export const DUPLICATE_IP = {
  message: 'conflict error',
  errors: [{ field: null, message: 'duplicate ip for auth_required=false', reference_sid: null }],
};
/** The exact 422 of the same section for auth_required without `endpoints.manage_auth_required`. */
export const AUTH_REQUIRED_DENIED = {
  message: 'object validation error',
  errors: [
    { field: 'auth_required', message: 'partner does not have permissions to set this value', reference_sid: null },
  ],
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * An IP and port no other test uses: the duplicate rule spans every partner of the running
 * instance, and the suites share one. 10.0.0.0/8 with a random port: collisions are negligible.
 */
export function freshAddress(): { ip: string; port: number } {
  return { ip: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`, port: randomInt(1024, 65536) };
}

/** Calls on `/endpoints` as one partner. */
export function endpointsAs(p: TestPartner) {
  return {
    create: (body: unknown) =>
      http()
        .post(`${API}/endpoints`)
        .set(...p.auth)
        .send(body as object),
    list: (query = '') =>
      http()
        .get(`${API}/endpoints${query}`)
        .set(...p.auth),
    get: (sid: string, query = '') =>
      http()
        .get(`${API}/endpoints/${sid}${query}`)
        .set(...p.auth),
    patch: (sid: string, body: unknown, query = '') =>
      http()
        .patch(`${API}/endpoints/${sid}${query}`)
        .set(...p.auth)
        .send(body as object),
    put: (sid: string, body: unknown, query = '') =>
      http()
        .put(`${API}/endpoints/${sid}${query}`)
        .set(...p.auth)
        .send(body as object),
    delete: (sid: string) =>
      http()
        .delete(`${API}/endpoints/${sid}`)
        .set(...p.auth),
  };
}

/** Creates an endpoint and returns it; fails the test unless the API answers 200. */
export async function created(p: TestPartner, body: unknown): Promise<ApiJson> {
  const b = body as { type?: string; properties?: Record<string, unknown> };
  // A conference_playback endpoint needs its conference (decisions §41): one is made when none is named.
  if (b.type === 'conference_playback' && !b.properties?.conference_endpoint_sid) {
    const conference = await created(p, { type: 'conference' });
    body = { ...b, properties: { ...b.properties, conference_endpoint_sid: conference.endpoint_sid } };
  }
  const res = await endpointsAs(p).create(body);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The partner's System Gateway: created on the partner.created event, so polled for (10 s at most). */
export async function systemGatewayOf(p: TestPartner): Promise<ApiJson> {
  let last = '';
  const found = async () => {
    const res = await endpointsAs(p).list(`?filter=${encodeURIComponent('type eq "system_gateway"')}`);
    last = `${res.status} ${JSON.stringify(res.body)}`;
    return res.status === 200 && res.body.total > 0 ? res.body.items[0] : undefined;
  };
  return until(`a System Gateway for ${p.partner_sid}`, 10_000, found, { everyMs: 50, detail: () => last });
}
