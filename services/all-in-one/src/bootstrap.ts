import { Subjects, UnavailableError, unwrapReply } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

export interface BootstrapResult {
  created: boolean;
  login: string;
  password: string | null;
  access_token: string | null;
  partner: { partner_sid: string };
}

/** Ensures the first partner (every scope) exists; fixed credentials come from PATCHBAY_BOOTSTRAP_*. */
export async function bootstrapPartner(bus: Bus, input: { login?: string; password?: string; token?: string }): Promise<BootstrapResult> {
  // In distributed mode the identity process may still be starting: wait for it (up to a minute).
  const deadline = Date.now() + 60000;
  for (;;) {
    try {
      return unwrapReply<BootstrapResult>(await bus.request(Subjects.identity.bootstrap, input, { timeoutMs: 30000 }));
    } catch (err) {
      if (!(err instanceof UnavailableError) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export function banner(r: BootstrapResult, baseUrl: string, storageUrl: string): string {
  const lines = [
    '',
    'Patchbay is running.',
    `  API base URL:  ${baseUrl}`,
    `  Storage URL:   ${storageUrl}`,
    `  Login:         ${r.login}`,
    `  Password:      ${r.password ?? '(unchanged; set PATCHBAY_BOOTSTRAP_PASSWORD to fix it)'}`,
    `  Access token:  ${r.access_token ?? '(issued on first start only; get a new one with: pnpm patchbay token create --login <login> --password <password>)'}`,
    `  Partner SID:   ${r.partner.partner_sid}`,
    '',
    r.access_token ? `  Try: curl -H "Authorization: Bearer ${r.access_token}" "${baseUrl}/countries?limit=2"` : '',
    '',
  ];
  return lines.join('\n');
}
