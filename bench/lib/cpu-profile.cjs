/**
 * Preload that writes a V8 CPU profile of the process it is loaded into, for profiling a bench and
 * every process it starts (node refuses --cpu-prof in NODE_OPTIONS; --require is allowed):
 *
 *   CPU_PROFILE_DIR=/tmp/prof NODE_OPTIONS="--require $PWD/bench/lib/cpu-profile.cjs" pnpm exec tsx bench/…
 *
 * Each process writes <dir>/<pid>-<script>.cpuprofile when it exits; read it with bench/profile-top.ts.
 */
'use strict';
const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const fs = require('node:fs');
  const path = require('node:path');
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-process session answers synchronously, so this works inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      const script = path.basename(process.argv[1] || 'node').replace(/[^\w.-]/g, '_');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.pid}-${script}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  process.on('exit', write);
  // A process without its own signal handlers would die without an 'exit' event.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      if (process.listenerCount(signal) > 1) return; // the process's own handler stops it
      write();
      process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    });
  }
}
