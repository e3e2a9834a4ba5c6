/**
 * Recently read blocks of stored files, in memory, so the ranges of a file in demand (a recording
 * being played and sought in by many listeners) cost no read at all instead of a positioned read
 * through libuv's thread pool — the largest part of a small range reply's time in a Node process
 * after the socket write itself (decisions §35).
 *
 * A block is named by the identity of the file it came from — device, inode, size, mtime and ctime
 * of the open file — so a replaced file (a new inode: the directory store renames a new file over
 * the old) or one changed in place (new mtime/ctime) is never answered from the old one's blocks;
 * those are simply never asked for again and age out. At most `budgetBytes` are held; what goes
 * first is chosen by the clock algorithm (a block read since the hand last passed gets another
 * round), which costs a hit one flag instead of reordering a list.
 */
export const BLOCK = 64 * 1024;

interface Block {
  readonly buf: Buffer;
  used: boolean;
  readonly file: CachedFile;
  readonly index: number;
}
interface CachedFile {
  readonly identity: string;
  readonly blocks: Array<Block | undefined>;
  held: number;
}

export class BlockCache {
  private readonly files = new Map<string, CachedFile>();
  /** Every held block, oldest first: the clock's hand is at the front. */
  private readonly ring: Block[] = [];
  private hand = 0;
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get enabled(): boolean {
    return this.budgetBytes >= BLOCK;
  }

  /** Bytes held. */
  get size(): number {
    return this.bytes;
  }

  /**
   * The `length` bytes at `position` of the file `identity` as slices of held blocks (never
   * changed: they can be written to a socket as they are), or undefined unless all are held.
   */
  slices(identity: string, position: number, length: number): Buffer[] | undefined {
    const blocks = this.files.get(identity)?.blocks;
    if (!blocks) return undefined;
    const first = Math.floor(position / BLOCK);
    const last = Math.floor((position + length - 1) / BLOCK);
    for (let i = first; i <= last; i++) if (!blocks[i]) return undefined;
    const out: Buffer[] = [];
    for (let i = first; i <= last; i++) {
      const block = blocks[i]!;
      block.used = true;
      const from = i === first ? position - i * BLOCK : 0;
      const to = i === last ? position + length - i * BLOCK : block.buf.length;
      out.push(from === 0 && to === block.buf.length ? block.buf : block.buf.subarray(from, to));
    }
    return out;
  }

  /** The indexes of the blocks of `length` bytes at `position` that are not held. */
  missing(identity: string, position: number, length: number): number[] {
    const blocks = this.files.get(identity)?.blocks;
    const out: number[] = [];
    for (let i = Math.floor(position / BLOCK); i <= Math.floor((position + length - 1) / BLOCK); i++)
      if (!blocks?.[i]) out.push(i);
    return out;
  }

  /** Keeps block `index` of the file `identity` (a buffer of its own: what it costs is what is counted). */
  put(identity: string, index: number, buf: Buffer): void {
    let file = this.files.get(identity);
    if (!file) this.files.set(identity, (file = { identity, blocks: [], held: 0 }));
    if (file.blocks[index]) return; // read twice at once: the first one stays
    const block: Block = { buf, used: false, file, index };
    file.blocks[index] = block;
    file.held += 1;
    this.ring.push(block);
    this.bytes += buf.length;
    while (this.bytes > this.budgetBytes && this.hand < this.ring.length) this.evictOne();
    if (this.hand > 4096 && this.hand * 2 > this.ring.length) {
      this.ring.splice(0, this.hand);
      this.hand = 0;
    }
  }

  /**
   * Advances the clock's hand to a block not used since it last passed, and drops it. The ring's
   * live part is [hand, length): a block given another round is pushed to the end again.
   */
  private evictOne(): void {
    for (;;) {
      const block = this.ring[this.hand++];
      if (block.used) {
        block.used = false;
        this.ring.push(block);
        continue;
      }
      block.file.blocks[block.index] = undefined;
      block.file.held -= 1;
      if (block.file.held === 0) this.files.delete(block.file.identity);
      this.bytes -= block.buf.length;
      return;
    }
  }
}
