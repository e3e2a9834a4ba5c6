/**
 * The console's CSV is Patchbay's one CSV writer (RFC 4180, formula-injection guard), shared with
 * record exports. Imported by path: the console's bundle takes only this module of contracts.
 */
export { toCsv } from '@patchbay/contracts/src/csv';
