/**
 * Reads a usage request's query (docs/interface-notes.md, "Usage"): `group_by` (`hour|day|month`,
 * optionally `,<key>`), `tz` (an IANA zone, default UTC) and `filter` (the list grammar), whose
 * conditions on the kind's date set the range. Each bad parameter is a 400 naming it.
 */
import { BadRequestError, USAGE_UNITS, errorItem, type UsageUnit } from '@patchbay/contracts';
import { canonicalTimeZone } from '@patchbay/platform';
import { compileFilter, parseFilter, parseInstant, type FilterAst, type StoreFilter } from '@patchbay/query';
import type { UsageKind } from './usage-kinds';

const DAY = 86_400_000;
/** The longest range one answer covers. */
export const MAX_USAGE_DAYS = 400;
/** The range when `filter` names no bound on the date: the 30 days before now. */
export const DEFAULT_USAGE_DAYS = 30;

export interface UsageRequest {
  unit: UsageUnit;
  /** The second key, when `group_by` names one. */
  by?: string;
  timeZone: string;
  from: Date;
  to: Date;
  /** The filter as a store query (without the caller's partner: the handler adds it). */
  filter: StoreFilter;
  /** The filter names the kind's date alone (its range): the hourly rollups may answer. */
  dateOnly: boolean;
}

function single(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw BadRequestError.field(name, `${name} must be given once`);
  return v;
}

/** The range the filter's bounds on `field` give: the latest lower bound and the earliest upper one. */
function boundsIn(ast: FilterAst, field: string): { from?: number; to?: number } {
  let from: number | undefined;
  let to: number | undefined;
  for (const c of ast) {
    if (c.attr !== field || c.values.length !== 1) continue;
    const at = parseInstant(c.values[0].text)?.getTime();
    if (at === undefined) continue;
    if (c.op === 'gt' || c.op === 'ge') from = Math.max(from ?? at, at);
    if (c.op === 'lt') to = Math.min(to ?? at, at);
    if (c.op === 'le') to = Math.min(to ?? at + 1, at + 1);
  }
  return { from, to };
}

export function parseUsageRequest(query: Readonly<Record<string, unknown>>, kind: UsageKind, now: Date): UsageRequest {
  const [unitText, by, ...more] = (single(query, 'group_by') ?? 'day').split(',').map((s) => s.trim());
  const unit = USAGE_UNITS.find((u) => u === unitText);
  if (!unit || more.length > 0 || (by !== undefined && !kind.keys.includes(by)))
    throw BadRequestError.field(
      'group_by',
      `group_by must be one of ${USAGE_UNITS.join(', ')}, optionally followed by ',' and one of ` +
        kind.keys.join(', '),
    );
  const tzText = single(query, 'tz') ?? 'UTC';
  const timeZone = canonicalTimeZone(tzText);
  if (!timeZone) throw BadRequestError.field('tz', `'${tzText}' is not an IANA time zone (such as Europe/Paris)`);

  const ast = parseFilter(single(query, 'filter') ?? '');
  const filter = compileFilter(ast, kind.spec);
  const bounds = boundsIn(ast, kind.dateField);
  const to = bounds.to ?? (bounds.from !== undefined ? Math.max(now.getTime(), bounds.from + 1) : now.getTime());
  const from = bounds.from ?? to - DEFAULT_USAGE_DAYS * DAY;
  const problem = (message: string) =>
    new BadRequestError({ message: 'validation error', errors: [errorItem(message, 'filter')] });
  if (to <= from) throw problem(`the ${kind.dateField} range of the filter is empty`);
  if (to - from > MAX_USAGE_DAYS * DAY)
    throw problem(`the ${kind.dateField} range of the filter spans more than ${MAX_USAGE_DAYS} days`);
  const dateOnly = ast.every((c) => c.attr === kind.dateField);
  return { unit, ...(by !== undefined && { by }), timeZone, from: new Date(from), to: new Date(to), filter, dateOnly };
}
