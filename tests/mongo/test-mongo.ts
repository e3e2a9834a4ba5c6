/**
 * `pnpm test:mongo [jest args]`: the MongoDB adapters and the public API against a MongoDB-wire
 * server (tests/mongo/jest.config.js says which suites).
 *
 * Without MONGODB_URL it starts an in-memory CongoDB on a free port, points MONGODB_URL at it and
 * stops it afterwards; with MONGODB_URL it uses that server as it is (a real MongoDB), and says
 * which of the two it found (`buildInfo`), since that decides what a green run has verified. No
 * test is skipped on either: the emulator's known gaps are fixed in its patch. jest's summary is
 * printed as usual; its results go to `.jest-mongo-results.json`; the exit status is jest's.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startCongoServer, type WireServer } from './congo-server';

const ROOT = path.resolve(__dirname, '../..');
const RESULTS_FILE = '.jest-mongo-results.json';

/** What the server says it is: CongoDB answers buildInfo with gitVersion "congodb". */
async function serverKind(url: string): Promise<'congodb' | 'mongodb'> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return info.gitVersion === 'congodb' ? 'congodb' : 'mongodb';
  } finally {
    await client.close();
  }
}

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
  let server: WireServer | undefined;
  const given = process.env.MONGODB_URL;
  if (!given) server = await startCongoServer();
  const url = given ?? server!.url;
  try {
    const kind = await serverKind(url);
    console.log(
      `test:mongo: ` +
        `${server ? 'in-memory CongoDB started' : 'MONGODB_URL given'}; the ` +
        `server is ${kind === 'congodb' ? 'the CongoDB emulator' : 'MongoDB'} ` +
        `(${url.replace(/\/\/[^@/]*@/, '//***@')})`,
    );
    // SIGINT reaches jest too (same process group); wait for it to finish before stopping the server.
    process.on('SIGINT', () => undefined);
    return await runJest({ ...process.env, MONGODB_URL: url }, process.argv.slice(2));
  } finally {
    await server?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('test:mongo:', err);
    process.exit(1);
  },
);
