import fs from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { bundleNames, serviceNames } from '../../deploy/bundle';

const ROOT = path.resolve(__dirname, '../..');
const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(text);

interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The stages in order, each with its own instructions (FROM excluded). */
function stages(): Stage[] {
  const out: Stage[] = [];
  for (const ins of dockerfile.getInstructions()) {
    if (ins.getKeyword() === 'FROM') {
      const [from, , name] = (ins.getArgumentsContent() ?? '').split(/\s+/);
      out.push({ name: name ?? '', from, instructions: [] });
    } else if (out.length > 0) {
      out[out.length - 1].instructions.push(ins);
    }
  }
  return out;
}

const all = stages();
const byName = new Map(all.map((s) => [s.name, s]));

/** The stage and every stage it is built FROM, nearest first. */
function chain(name: string): Stage[] {
  const out: Stage[] = [];
  for (let s = byName.get(name); s; s = byName.get(s.from)) out.push(s);
  return out;
}
const args = (s: Stage, keyword: string) =>
  s.instructions.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');

describe('Dockerfile', () => {
  const images = bundleNames();

  test('parses without problems and has a target for every service and the bootstrap', () => {
    expect(serviceNames()).toEqual(
      expect.arrayContaining([
        'gateway',
        'identity',
        'records',
        'storage',
        'endpoint',
        'push',
        'file-server',
        'transcoder',
      ]),
    );
    for (const name of images) expect(byName.has(name)).toBe(true);
    // Every FROM is the node base image or an earlier stage.
    for (const [i, s] of all.entries()) {
      expect(s.from === '${NODE_IMAGE}' || all.slice(0, i).some((p) => p.name === s.from)).toBe(true);
    }
  });

  test('every service target runs as a non-root user, with node on its bundle', () => {
    for (const name of images) {
      const stages = chain(name);
      const user = stages.map((s) => args(s, 'USER').pop()).find((u) => u !== undefined);
      expect(user).toBeDefined();
      expect(user!.split(':')[0]).not.toMatch(/^(0|root)$/);
      const cmd = stages.map((s) => args(s, 'CMD').pop()).find((c) => c !== undefined);
      expect(JSON.parse(cmd!)).toEqual(['node', '--enable-source-maps', 'main.js']);
      // The image holds only its own pruned output.
      expect(
        chain(name)[0]
          .instructions.filter((i) => i.getKeyword() === 'COPY')
          .map((i) => i.getTextContent()),
      ).toContain(`COPY --from=build /out/${name} /app`);
    }
  });

  test('every long-running service has a health check on /health', () => {
    for (const name of serviceNames()) {
      const hc = chain(name)
        .map((s) => args(s, 'HEALTHCHECK').pop())
        .find((h) => h !== undefined);
      expect(hc).toMatch(/\/health/);
    }
  });

  test('ffmpeg is installed in the transcoder target only', () => {
    const withFfmpeg = all.filter((s) => args(s, 'RUN').some((r) => /\bffmpeg\b/.test(r))).map((s) => s.name);
    expect(withFfmpeg).toEqual(['transcoder']);
    for (const name of images.filter((n) => n !== 'transcoder'))
      expect(chain(name).map((s) => s.name)).not.toContain('transcoder');
  });

  test('the build stage bundles, then gives each service pruned production dependencies with pnpm deploy', () => {
    const build = byName.get('build')!;
    const runs = args(build, 'RUN').join('\n');
    expect(runs).toMatch(/pnpm install --offline --frozen-lockfile/);
    expect(runs).toMatch(/pnpm run build/);
    expect(runs).toMatch(/pnpm --filter "@patchbay\/\$\{svc\}" --prod .*deploy/);
    const loop = /for svc in ([^;]+); do/.exec(runs)?.[1].trim().split(/\s+/) ?? [];
    expect(loop.sort()).toEqual(serviceNames());
    // Runtime stages never carry the package manager or the sources.
    expect(chain('gateway').map((s) => s.name)).not.toContain('build');
  });

  test('every service image listens on every interface of its container (HOST=0.0.0.0)', () => {
    for (const name of serviceNames()) {
      const env = chain(name).flatMap((stage) => args(stage, 'ENV'));
      expect({ name, host: env.join(' ').match(/\bHOST=(\S+)/)?.[1] }).toEqual({ name, host: '0.0.0.0' });
    }
  });

  test('the gateway image carries the console build and serves it from there (CONSOLE_DIR)', () => {
    const runs = args(byName.get('build')!, 'RUN').join('\n');
    expect(runs).toMatch(/pnpm run build:console/);
    expect(runs).toMatch(/cp -r packages\/console\/dist \/out\/gateway\/console/);
    const env = args(byName.get('gateway')!, 'ENV').join(' ');
    expect(env).toMatch(/\bCONSOLE_DIR=\/app\/console\b/);
    // The build dir of the package is what `pnpm build:console` writes (never committed: .gitignore has dist/).
    expect(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('dist/');
  });

  test('.dockerignore keeps node_modules, data and tests out but the bundler in', () => {
    const ignore = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const line of [
      '**/node_modules',
      '**/data',
      '.git',
      'tests',
      'deploy/*',
      '!deploy/bundle.ts',
      '!deploy/bundle-links.ts',
      '!deploy/bootstrap-main.ts',
      '.cache',
    ])
      expect(ignore).toContain(line);
  });
});
