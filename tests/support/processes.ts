import fs from 'node:fs';

/** One process as /proc shows it. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
  state: string;
  args: string[];
}

function info(pid: string): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces or parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid: Number(pid),
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      state: rest[0],
      ppid: Number(rest[1]),
      args: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'),
    };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Running (not zombie) ffmpeg/ffprobe processes with an argument inside `dir`. */
export function ffmpegUsing(dir: string): ProcInfo[] {
  const found: ProcInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = info(entry);
    if (
      p &&
      (p.comm === 'ffmpeg' || p.comm === 'ffprobe') &&
      p.state !== 'Z' &&
      p.args.some((a) => a.startsWith(`${dir}/`))
    )
      found.push(p);
  }
  return found;
}
