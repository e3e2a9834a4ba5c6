/**
 * @patchbay/query — list requests: parameter validation, the `filter` grammar compiled to a
 * MongoDB query document, sort and cursor filters, field filtering and the response envelope.
 */
export {
  defineListSpec,
  fieldType,
  isSelectable,
  isSortable,
  storeField,
  type FieldType,
  type ListSpec,
  type SortDir,
  type StoreFilter,
  type StoreProjection,
  type StoreSort,
} from './fields';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  parseFieldParams,
  parseListParams,
  type FieldParams,
  type ListParams,
} from './params';
export { tokenize, type Token } from './filter/lexer';
export {
  MAX_FILTER_BYTES,
  MAX_FILTER_CONDITIONS,
  OPERATORS,
  parseFilter,
  type Condition,
  type FilterAst,
  type Literal,
  type Operator,
} from './filter/parser';
export { compileFilter, compileFilterString, likeToRegex, parseInstant } from './filter/compile';
export { buildSort, reverseSort, sortSign, type Order } from './order';
export { cursorFilter, getPath, type CursorPosition } from './cursor';
export { SEED_PATTERN, newShuffleSeed, shuffleSids } from './shuffle';
export { applyFieldFilter } from './projection';
export {
  buildEnvelope,
  cursorPagination,
  offsetPagination,
  type CursorLinks,
  type EnvelopeInput,
  type Pagination,
} from './envelope';
export { andFilters, runList, type ListSource, type RunListOptions } from './run-list';
export { ListGate, requestedLimit, type ListGateLimits } from './list-gate';
