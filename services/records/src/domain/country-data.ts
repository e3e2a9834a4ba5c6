import worldCountries from 'world-countries';
import mccMncList from 'mcc-mnc-list';
import type { Country } from '@patchbay/contracts';

/**
 * The country list, built from maintained data packages: `world-countries` (ISO 3166 codes, names,
 * capitals, regions, TLDs, dialing codes) and `mcc-mnc-list` (ITU mobile country codes).
 * Entries without an ISO 3166 numeric code (e.g. Kosovo, user-assigned) are left out: the numeric
 * code is a required integer of the list.
 */
export function buildCountries(): Country[] {
  const mccByAlpha2 = new Map<string, Set<string>>();
  for (const entry of mccMncList.all()) {
    if (!entry.countryCode || !entry.mcc || entry.countryCode.includes('-')) continue;
    const set = mccByAlpha2.get(entry.countryCode) ?? new Set<string>();
    set.add(entry.mcc);
    mccByAlpha2.set(entry.countryCode, set);
  }
  return worldCountries
    .filter((c) => /^\d+$/.test(c.ccn3 ?? ''))
    .map((c): Country => {
      const mccs = [...(mccByAlpha2.get(c.cca2) ?? [])].sort();
      return {
        capital: c.capital?.[0] ?? null,
        common_name: c.name.common,
        dialing_prefix: dialingPrefix(c.idd),
        domain: c.tld?.[0]?.replace(/^\./, '') ?? null,
        iso_3166_alpha_2: c.cca2,
        iso_3166_alpha_3: c.cca3,
        iso_3166_numeric: Number(c.ccn3),
        mcc: mccs.length > 0 ? mccs.join(',') : null,
        official_name: c.name.official,
        region: c.region || null,
        subregion: c.subregion || null,
      };
    })
    .sort((a, b) => a.iso_3166_alpha_3.localeCompare(b.iso_3166_alpha_3));
}

/** "+4" with suffix "4" → "44"; "+1" with many area-code suffixes → "1"; none → null. */
function dialingPrefix(idd: { root?: string; suffixes?: string[] } | undefined): string | null {
  const root = (idd?.root ?? '').replace('+', '');
  if (!root) return null;
  const suffixes = idd?.suffixes ?? [];
  return suffixes.length === 1 ? `${root}${suffixes[0]}` : root;
}
