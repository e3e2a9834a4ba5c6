import type { ContainerPatch } from '@patchbay/contracts';
import { CONTAINER_SETTINGS } from '../domain/container-rules';
import type { ContainerSettings } from '../domain/documents';
import type { PlainAttributes } from '../domain/external-attributes';

/** Keeps only the writable settings of a checked body (read-only fields sent back are ignored). */
export function sentSettings(body: ContainerPatch): Partial<ContainerSettings> {
  const out: Partial<Record<keyof ContainerSettings, unknown>> = {};
  for (const key of CONTAINER_SETTINGS) if (body[key] !== undefined) out[key] = body[key];
  // why the cast: the schema checked each value and types it as stored, except that it lets the limit
  // settings (quota_*, threshold_*) be null, which domain/external-limits.ts refuses (internal) or drops
  // (external) before anything is stored.
  return out as Partial<ContainerSettings>;
}

/** The external attributes a client sent, in plaintext. */
export function sentAttributes(settings: Pick<ContainerSettings, 'external_attributes'>): PlainAttributes | null {
  // why the cast: these came in the body, where the schema checked `credentials` is a map of strings.
  return settings.external_attributes as PlainAttributes | null;
}

/** Attributes with keys sorted at every level, for comparing. */
export function sortedAttributes(a: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(a)
      .sort()
      .map((k) => {
        const v = a[k];
        return [k, v && typeof v === 'object' ? sortedAttributes({ ...v }) : v];
      }),
  );
}

export function sameAttributes(a: PlainAttributes, b: PlainAttributes | null): boolean {
  return b !== null && JSON.stringify(sortedAttributes(a)) === JSON.stringify(sortedAttributes(b));
}
