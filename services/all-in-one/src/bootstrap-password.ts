/** The shortest bootstrap password accepted outside development (decisions §50). */
export const MIN_BOOTSTRAP_PASSWORD = 12;

/** Placeholders shipped in examples and templates, and the passwords tried first by anyone. */
const PLACEHOLDER = /change[-_ ]?me|placeholder|example|^(password|admin|secret|patchbay|letmein|12345)\d*$/i;

/**
 * Why PATCHBAY_BOOTSTRAP_PASSWORD cannot be the first partner's password outside development, or
 * null. Unset is fine: Patchbay then generates one and prints it once.
 */
export function bootstrapPasswordProblem(password: string | undefined): string | null {
  if (password === undefined) return null;
  if (PLACEHOLDER.test(password))
    return (
      'PATCHBAY_BOOTSTRAP_PASSWORD: a placeholder, not a password; set a long random one ' +
      '(or unset it to have one generated)'
    );
  if (password.length < MIN_BOOTSTRAP_PASSWORD)
    return (
      `PATCHBAY_BOOTSTRAP_PASSWORD: at least ${MIN_BOOTSTRAP_PASSWORD} characters ` +
      'when Patchbay listens beyond this machine'
    );
  return null;
}

/**
 * Development is Patchbay listening on this machine only (HOST a loopback address, the default of
 * `pnpm start`): there a short password is the developer's business.
 */
export function isDevelopmentHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
