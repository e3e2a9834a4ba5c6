import type { Partner, Token } from '@patchbay/contracts';
import type { PartnerDoc, TokenDoc } from './documents';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function serializePartner(p: PartnerDoc): Partner {
  return {
    attributes: p.attributes ?? {},
    available_scopes: p.available_scopes,
    date_created: iso(p.date_created) as string,
    login: p.login,
    name: p.name,
    partner_sid: p.partner_sid,
    status: p.status,
  };
}

/** A token as returned; `secret` is given only right after creation (it is stored hashed). */
export function serializeToken(t: TokenDoc, secret: string | null = null, partner?: PartnerDoc): Token {
  return {
    access_token: secret,
    date_created: iso(t.date_created) as string,
    date_expiration_access_token: iso(t.date_expiration_access_token),
    date_last_accessed: iso(t.date_last_accessed),
    name: t.name,
    ...(partner ? { partner: serializePartner(partner) } : {}),
    partner_sid: t.partner_sid,
    scopes: t.scopes,
    token_sid: t.token_sid,
    token_type: 'bearer',
  };
}
