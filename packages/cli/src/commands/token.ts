import type { Command } from 'commander';
import { data } from '@patchbay/client';
import { apiClient, scopeNames, type ClientOptions } from '../client';
import { examples } from '../help';

/** `patchbay token create|list|revoke` and `patchbay whoami` */
export function registerToken(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const token = program.command('token').description('access tokens');
  examples(token, 'patchbay token create --login acme --password "a long secret"', 'patchbay token list');
  const create = token
    .command('create')
    .description('password grant: a new token for --login/--password')
    .requiredOption('--login <login>')
    .requiredOption('--password <password>')
    .option('--scopes <scopes>', 'space- or comma-separated subset of the partner scopes')
    .option('--name <name>')
    .option('--expires-in <seconds>')
    .action(async (o: { login: string; password: string; scopes?: string; name?: string; expiresIn?: string }) => {
      // The grant takes no credentials: the login and password are its body.
      const anonymous = apiClient({ url: opts().url });
      const body = {
        grant_type: 'password' as const,
        username: o.login,
        password: o.password,
        name: o.name,
        access_token_expires_in: o.expiresIn ? Number(o.expiresIn) : undefined,
      };
      const issued = await data(anonymous.api.POST('/oauth/token', { body }));
      if (o.scopes) {
        const scopes = scopeNames(o.scopes);
        await data(
          anonymous.withCredentials({ token: issued.access_token ?? '' }).api.PATCH('/oauth/tokens/{token_sid}', {
            params: { path: { token_sid: issued.token_sid } },
            body: { scopes },
          }),
        );
      }
      print(issued);
    });
  examples(
    create,
    'patchbay token create --login acme --password "a long secret"',
    'patchbay token create --login acme --password "a long secret" --scopes storage.read --expires-in 3600',
  );
  const list = token
    .command('list')
    .description('your tokens (their secrets are not shown again)')
    .action(async () => print(await data(apiClient(opts()).api.GET('/oauth/tokens'))));
  examples(list, 'patchbay token list');
  const revoke = token
    .command('revoke [token]')
    .description('revoke the given token secret, or the one in use')
    .action(async (secret?: string) => {
      await data(apiClient(opts()).api.POST('/oauth/revoke', { body: secret ? { token: secret } : {} }));
      print({ revoked: true });
    });
  examples(revoke, 'patchbay token revoke', 'patchbay token revoke <secret of another token>');
  const whoami = program
    .command('whoami')
    .description('the partner the credentials belong to')
    .action(async () => print(await data(apiClient(opts()).api.GET('/oauth/whoami'))));
  examples(whoami, 'PATCHBAY_TOKEN=<token> patchbay whoami');
}
