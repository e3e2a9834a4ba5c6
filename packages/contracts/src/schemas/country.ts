import { Type, type Static } from '@sinclair/typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** An item of `GET /countries` (docs/interface-notes.md, Detail records and countries). */
export const CountrySchema = Type.Object(
  {
    capital: NullableString,
    common_name: Type.String(),
    dialing_prefix: NullableString,
    domain: NullableString,
    iso_3166_alpha_2: Type.String({ minLength: 2, maxLength: 2 }),
    iso_3166_alpha_3: Type.String({ minLength: 3, maxLength: 3 }),
    iso_3166_numeric: Type.Integer(),
    mcc: NullableString,
    official_name: Type.String(),
    region: NullableString,
    subregion: NullableString,
  },
  { additionalProperties: false, $id: 'Country' },
);
export type Country = Static<typeof CountrySchema>;
