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

/** The process's working directory, or '' when it cannot be read. */
function cwdOf(pid: number): string {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '';
  }
}

/**
 * Running (not zombie) ffmpeg/ffprobe processes with an argument inside `dir`, or working inside it
 * (a streamed transcode reads and writes pipes, in its run's scratch directory).
 */
export function ffmpegUsing(dir: string): ProcInfo[] {
  const found: ProcInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = info(entry);
    if (
      p &&
      (p.comm === 'ffmpeg' || p.comm === 'ffprobe') &&
      p.state !== 'Z' &&
      (p.args.some((a) => a.startsWith(`${dir}/`)) || cwdOf(p.pid).startsWith(`${dir}/`))
    )
      found.push(p);
  }
  return found;
}
