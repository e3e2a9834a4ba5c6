/**
 * A put's body failed before the storage did: the put rejects with `err`, the body's own error,
 * unchanged (the storage's failures are translated instead). The first failure decides, because the
 * other side then fails too, as a consequence.
 */
export class SourceFailure {
  constructor(readonly err: unknown) {}
}
