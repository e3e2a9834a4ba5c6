import { defineListSpec, type FieldType, type ListSpec, type SortDir } from '@patchbay/query';
import { isDecimal, type FieldKind, type RecordFields } from './record-fields';

/** `GET /countries`: offset pagination only. */
export const COUNTRY_LIST_SPEC = defineListSpec({
  fields: {
    capital: 'string',
    common_name: 'string',
    dialing_prefix: 'string',
    domain: 'string',
    iso_3166_alpha_2: 'string',
    iso_3166_alpha_3: 'string',
    iso_3166_numeric: 'integer',
    mcc: 'string',
    official_name: 'string',
    region: 'string',
    subregion: 'string',
  },
  defaultOrder: { field: 'iso_3166_alpha_3', dir: 'asc' },
  sidField: 'iso_3166_alpha_3',
});

/** How `filter` reads a value of each kind (a list field matches when any element does). */
const FILTER_TYPES: Record<FieldKind, FieldType> = {
  secure_id: 'uuid',
  timestamp: 'date',
  money: 'number',
  seconds: 'number',
  integer: 'integer',
  boolean: 'boolean',
  text: 'string',
  list: 'string',
  text_or_integer: 'string',
};

/**
 * The list spec of a kind of detail record, derived from its fields: every field filterable,
 * sortable and selectable; `dr_sid` breaks ties; after/before ordered by `cursorOrder` (a field
 * that may be null sorts its null records first); `total` null. Decimal fields are filtered and
 * sorted as numbers, on the numeric copy each stored record keeps under `numeric` (record-docs.ts).
 */
export function recordListSpec(
  fields: RecordFields,
  cursorOrder: readonly string[],
  defaultOrder: { field: string; dir: SortDir },
): ListSpec {
  const types: Record<string, FieldType> = {};
  for (const name of fields.names) types[name] = FILTER_TYPES[fields.kinds[name]];
  return defineListSpec({
    fields: types,
    defaultOrder,
    sidField: 'dr_sid',
    cursor: { orderFields: cursorOrder, nullable: cursorOrder.filter((f) => fields.nullable.has(f)) },
    countable: false,
    storePath: (path) =>
      Object.hasOwn(fields.kinds, path) && isDecimal(fields.kinds[path]) ? `numeric.${path}` : path,
  });
}
