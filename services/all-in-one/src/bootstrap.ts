import { IdentityClient, UnavailableError, type BootstrapReply, type BootstrapRequest } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

export type BootstrapResult = BootstrapReply;

/** Ensures the first partner (every scope) exists; fixed credentials come from PATCHBAY_BOOTSTRAP_*. */
export async function bootstrapPartner(bus: Bus, input: BootstrapRequest): Promise<BootstrapResult> {
  const identity = new IdentityClient(bus, { timeoutMs: 30000 });
  // In distributed mode the identity process may still be starting: wait for it (up to a minute).
  const deadline = Date.now() + 60000;
  for (;;) {
    try {
      return await identity.bootstrap(input);
    } catch (err) {
      if (!(err instanceof UnavailableError) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * The start banner. A password or token is printed only when Patchbay generated it just now; one
 * the operator set through the environment is named, never echoed into logs.
 */
export function banner(r: BootstrapResult, baseUrl: string, storageUrl: string): string {
  const password =
    r.password ??
    (r.password_from_env
      ? '(as set in PATCHBAY_BOOTSTRAP_PASSWORD)'
      : '(unchanged; set PATCHBAY_BOOTSTRAP_PASSWORD to fix it)');
  const token =
    r.access_token ??
    (r.token_from_env
      ? '(as set in PATCHBAY_BOOTSTRAP_TOKEN)'
      : '(issued on first start only; get a new one with: pnpm patchbay token ' +
        'create --login <login> --password <password>)');
  const shown = r.access_token ?? (r.token_from_env ? '$PATCHBAY_BOOTSTRAP_TOKEN' : null);
  const lines = [
    '',
    'Patchbay is running.',
    `  API base URL:  ${baseUrl}`,
    `  Storage URL:   ${storageUrl}`,
    `  Console:       ${new URL(baseUrl).origin}/console`,
    `  Login:         ${r.login}`,
    `  Password:      ${password}`,
    `  Access token:  ${token}`,
    `  Partner SID:   ${r.partner.partner_sid}`,
    '',
    shown ? `  Try: curl -H "Authorization: Bearer ${shown}" "${baseUrl}/countries?limit=2"` : '',
    '',
  ];
  return lines.join('\n');
}
