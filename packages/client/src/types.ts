import type { components, operations, paths } from './generated/openapi';

export type { components, operations, paths };

/** The API's named schemas: `Schemas['Endpoint']`, `Schemas['File']`, `Schemas['ErrorBody']`… */
export type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorItem = Schemas['ErrorItem'];

/** The JSON body of `P`'s GET when it answers 200. */
type GetJson<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;

/** The paths whose GET answers a list envelope (`{items, pagination, …}`): what `paginate` walks. */
export type ListPath = {
  [P in keyof paths]: GetJson<P> extends { items: unknown[]; pagination: unknown } ? P : never;
}[keyof paths];

/** The list envelope of a list path, and the type of its items. */
export type ListEnvelope<P extends ListPath> = GetJson<P>;
export type ListItem<P extends ListPath> = GetJson<P> extends { items: Array<infer I> } ? I : never;

/** The query parameters of a list path (limit, order, filter, after/before where the list has them…). */
export type ListQuery<P extends ListPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
