import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A search path like this machine's, with ffmpeg, ffprobe and ffplay left out: one directory of
 * links to every other program on PATH (node, setpriv, sh…). A process started with it sees a
 * machine without Debian's ffmpeg package. Removed by the returned function.
 */
export function pathWithoutFfmpeg(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bare-path-'));
  const hidden = new Set(['ffmpeg', 'ffprobe', 'ffplay']);
  const linked = new Set<string>();
  for (const from of (process.env.PATH ?? '').split(path.delimiter)) {
    let names: string[];
    try {
      names = fs.readdirSync(from);
    } catch {
      continue;
    }
    for (const name of names) {
      // The first directory on PATH wins, as in a shell.
      if (hidden.has(name) || linked.has(name)) continue;
      linked.add(name);
      fs.symlinkSync(path.join(from, name), path.join(dir, name));
    }
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
