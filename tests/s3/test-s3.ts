/**
 * `pnpm test:s3 [jest args]`: the public-API suite (embedded mode) with Patchbay's own blobs on S3.
 *
 * Starts s3rver (npm, on a free port, a temporary directory) with one bucket, sets
 * BLOB_STORE_URL=s3://patchbay-test/run?endpoint=… and the credentials s3rver knows, runs jest
 * (tests/s3/jest.config.js; each instance the harness starts takes a prefix of its own under it),
 * and stops s3rver. jest's summary is printed as usual; its results go to `.jest-s3-results.json`;
 * the exit status is jest's.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startS3rver } from '../../packages/blob-s3/test/s3rver-server';

const ROOT = path.resolve(__dirname, '../..');
const RESULTS_FILE = '.jest-s3-results.json';
const BUCKET = 'patchbay-test';

/** Two workers unless the caller chose: jest's default on two cores is one, which doubles the run. */
function workers(args: string[]): string[] {
  return args.some((a) => a.startsWith('--maxWorkers') || a.startsWith('-w') || a === '--runInBand' || a === '-i')
    ? []
    : ['--maxWorkers=2'];
}

function runJest(env: NodeJS.ProcessEnv, args: string[]): Promise<number> {
  const jest = path.join(ROOT, 'node_modules', '.bin', 'jest');
  const child = spawn(
    jest,
    [
      '--config',
      path.join(__dirname, 'jest.config.js'),
      '--json',
      `--outputFile=${RESULTS_FILE}`,
      ...workers(args),
      ...args,
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<number> {
  const server = await startS3rver([BUCKET]);
  try {
    const url = `s3://${BUCKET}/run?endpoint=${encodeURIComponent(server.endpoint)}`;
    console.log(`test:s3: s3rver at ${server.endpoint}; BLOB_STORE_URL=${url}`);
    process.on('SIGINT', () => undefined);
    // s3rver checks the access key id (S3RVER), not the signature.
    return await runJest(
      { ...process.env, BLOB_STORE_URL: url, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
      process.argv.slice(2),
    );
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('test:s3:', err);
    process.exit(1);
  },
);
