import fs from 'node:fs';

/**
 * How far into an open file its readers are: the file's offset, which every descriptor of the same
 * open file shares (a child given it as its stdin moves it as it reads). Read from Linux's
 * `/proc/self/fdinfo`; null where that is not there (the caller then feeds the bytes itself).
 */
export async function fileOffset(fd: number): Promise<number | null> {
  try {
    const text = await fs.promises.readFile(`/proc/self/fdinfo/${fd}`, 'utf8');
    const pos = /^pos:\s*(\d+)$/m.exec(text);
    return pos ? Number(pos[1]) : null;
  } catch {
    return null;
  }
}
