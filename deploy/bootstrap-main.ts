/**
 * One-shot bootstrap for deployments (compose service `bootstrap`, Kubernetes Job
 * `patchbay-bootstrap`): waits for the identity service over NATS, makes sure the first partner
 * exists (PATCHBAY_BOOTSTRAP_LOGIN / _PASSWORD / _TOKEN, as the launchers do), prints the banner
 * and exits 0. Safe to run on every deploy: an existing partner keeps its SID, and fixed
 * credentials are re-applied.
 */
import { Type } from '@sinclair/typebox';
import { CommonConfig, PublicFilesConfig, createLogger, loadConfig, openBus, publicFilesUrl } from '@patchbay/platform';
import { banner, bootstrapPartner } from '../services/all-in-one/src/bootstrap';
import { bootstrapPasswordProblem } from '../services/all-in-one/src/bootstrap-password';

const Config = Type.Object({
  NATS_URL: CommonConfig.NATS_URL,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  BASE_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:8080/core/v2' }),
  ...PublicFilesConfig,
  PATCHBAY_BOOTSTRAP_LOGIN: Type.Optional(Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' })),
  PATCHBAY_BOOTSTRAP_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  PATCHBAY_BOOTSTRAP_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
});

async function main(): Promise<void> {
  const config = loadConfig(Config);
  // A deployment is never development: a placeholder or short password is refused (decisions §50).
  const weak = bootstrapPasswordProblem(config.PATCHBAY_BOOTSTRAP_PASSWORD);
  if (weak) throw new Error(weak);
  if (!config.NATS_URL) throw new Error('NATS_URL is required');
  const logger = createLogger({ name: 'bootstrap', level: config.LOG_LEVEL });
  const bus = await openBus({ natsUrl: config.NATS_URL, name: 'bootstrap', logger });
  try {
    const result = await bootstrapPartner(bus, {
      login: config.PATCHBAY_BOOTSTRAP_LOGIN,
      password: config.PATCHBAY_BOOTSTRAP_PASSWORD,
      token: config.PATCHBAY_BOOTSTRAP_TOKEN,
    });
    process.stdout.write(`${banner(result, config.BASE_URL, publicFilesUrl(config))}\n`);
    logger.info({ partner_sid: result.partner.partner_sid, created: result.created }, 'bootstrap partner ready');
  } finally {
    await bus.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bootstrap failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
