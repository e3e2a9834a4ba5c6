import { Type } from '@sinclair/typebox';

/**
 * Query parameters several routes share, as the OpenAPI document shows them. The services read
 * and check them: with_related (endpoint, push, identity) and reuse (push) with contracts'
 * parseWithRelated / parseFlag, nested_objects in endpoint.
 */

/** `with_related=true` nests the owning partner (endpoints, applications, devices, tokens). */
export const WITH_RELATED = Type.Object({
  with_related: Type.Optional(
    Type.Boolean({ default: false, description: 'Add the owning partner as a nested `partner` object.' }),
  ),
});

/** PUT/PATCH of an endpoint: `replace` makes nested objects be replaced whole instead of merged. */
export const NESTED_OBJECTS = Type.Object({
  nested_objects: Type.Optional(
    Type.Literal('replace', {
      description: 'Replace nested objects (properties, attributes) whole; without it they are merged key by key.',
    }),
  ),
});
