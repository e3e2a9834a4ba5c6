import type { Envelope } from './list';

/**
 * Answers asked without include_fields/exclude_fields: the API then gives every field of the
 * object (`W`), never the Selection form the answer's type also allows (W's fields, each optional).
 */

/** The Selection form of W: any of its fields, and of its objects' fields. */
type Selection<W> = W extends object ? { [K in keyof W]?: Selection<W[K]> } : W;

/** The object of such an answer. */
export function whole<W>(value: W | Selection<W>): W {
  // why: without a field filter the API answers every field (the Selection form needs one).
  return value as W;
}

/** A page of such a list: each item whole. */
export function wholeItems<W>(page: Omit<Envelope<W>, 'items'> & { items: Array<W | Selection<W>> }): Envelope<W> {
  return { ...page, items: page.items.map((item) => whole<W>(item)) };
}
