import request from 'supertest';
import type { PatchbayInstance, Mode } from './patchbay';

declare const __PATCHBAY_MODE__: Mode;

export type Described = Omit<PatchbayInstance, 'stop'>;

/** The Patchbay instance this jest project runs against (started by its globalSetup). */
export function instance(): Described {
  const raw = process.env[`PATCHBAY_TEST_${__PATCHBAY_MODE__.toUpperCase()}`];
  if (!raw) throw new Error(`no Patchbay instance for mode ${__PATCHBAY_MODE__}: run through the api-* jest projects`);
  return JSON.parse(raw) as Described;
}

export const mode = (): Mode => __PATCHBAY_MODE__;

/** supertest agent on the API origin; paths are under /core/v2. */
export function http() {
  return request(instance().origin);
}

export const API = '/core/v2';

export interface TestPartner {
  partner_sid: string;
  login: string;
  password: string;
  token: string;
  auth: [string, string];
}

let counter = 0;

/** Creates a fresh partner through the API (as the bootstrap partner) and a token for it. */
export async function newPartner(
  opts: { scopes?: string[]; attributes?: Record<string, unknown> } = {},
): Promise<TestPartner> {
  const inst = instance();
  const login = `p${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = 'partner-password-1';
  const created = await http()
    .post(`${API}/partners`)
    .set('Authorization', `Bearer ${inst.token}`)
    .send({
      name: `Test ${login}`,
      login,
      password,
      ...(opts.scopes ? { available_scopes: opts.scopes } : {}),
      ...(opts.attributes ? { attributes: opts.attributes } : {}),
    });
  if (created.status !== 200)
    throw new Error(`partner create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const tok = await http()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: login, password });
  if (tok.status !== 200) throw new Error(`token failed: ${tok.status} ${JSON.stringify(tok.body)}`);
  return {
    partner_sid: created.body.partner_sid,
    login,
    password,
    token: tok.body.access_token,
    auth: ['Authorization', `Bearer ${tok.body.access_token}`],
  };
}

/** The bootstrap partner's Authorization header. */
export function adminAuth(): [string, string] {
  return ['Authorization', `Bearer ${instance().token}`];
}

/** Asserts the shape of every error body: `{message, errors: [{field, message, reference_sid}]}`, nothing else. */
export function expectErrorBody(body: unknown): void {
  expect(Object.keys(body as object).sort()).toEqual(['errors', 'message']);
  const b = body as { message: unknown; errors: Array<Record<string, unknown>> };
  expect(typeof b.message).toBe('string');
  expect(Array.isArray(b.errors)).toBe(true);
  for (const e of b.errors) {
    expect(Object.keys(e).sort()).toEqual(['field', 'message', 'reference_sid']);
    expect(e.field === null || typeof e.field === 'string').toBe(true);
    expect(typeof e.message).toBe('string');
    expect(e.reference_sid === null || typeof e.reference_sid === 'string').toBe(true);
  }
}
