import {
  KEY_FIELDS,
  NO_KEYS,
  UnprocessableError,
  errorItem,
  type ErrorItem,
  type KeyValues,
} from '@patchbay/contracts';
import type { ContainerSettings } from './documents';

/** Container defaults (docs/interface-notes.md, Files and containers). */
export const CONTAINER_DEFAULTS: Readonly<ContainerSettings> = {
  allow_publish: true,
  allowed_classifications: [],
  blocked_classifications: [],
  default_file_lifecycle_action: 'no_action',
  default_file_lifecycle_ttl: -1,
  default_file_publish: 'file_sid',
  default_file_threshold_include: true,
  default_file_unique: false,
  encryption_key_sids: [],
  ...NO_KEYS,
  name: 'N/A',
  quota_bytes: 1073741824,
  quota_files: 100,
  threshold_action: 'no_action',
  threshold_bytes: null,
  threshold_bytes_target: null,
  threshold_files: null,
  threshold_files_target: null,
  threshold_grace_period: 0,
  type: 'internal',
  external_attributes: null,
  unique: false,
};

/** The writable settings, in one list (what a create, PATCH or PUT may change). */
// why the cast: Object.keys says string[]; CONTAINER_DEFAULTS has exactly ContainerSettings' keys.
export const CONTAINER_SETTINGS = Object.keys(CONTAINER_DEFAULTS) as Array<keyof ContainerSettings>;

/** Fields that are fixed once the container exists. */
export const CONTAINER_CREATE_ONLY = ['unique', 'type'] as const;

/** Default number of containers a partner may hold; the partner attribute `max_containers` raises it. */
export const DEFAULT_MAX_CONTAINERS = 2;

/**
 * Cross-field rules: thresholds at most the quotas, targets below their thresholds, a delete_lru
 * container needs a threshold and its target, allowed and blocked classifications do not overlap.
 * Reports every broken rule at once (422).
 */
export function checkContainerRules(c: ContainerSettings): void {
  const errors: ErrorItem[] = [];
  if (c.threshold_files !== null && c.threshold_files > c.quota_files)
    errors.push(errorItem('must be less than or equal to quota_files', 'threshold_files'));
  if (c.threshold_bytes !== null && c.threshold_bytes > c.quota_bytes)
    errors.push(errorItem('must be less than or equal to quota_bytes', 'threshold_bytes'));
  if (c.threshold_files_target !== null) {
    if (c.threshold_files === null) errors.push(errorItem('needs threshold_files', 'threshold_files_target'));
    else if (c.threshold_files_target >= c.threshold_files)
      errors.push(errorItem('must be less than threshold_files', 'threshold_files_target'));
  }
  if (c.threshold_bytes_target !== null) {
    if (c.threshold_bytes === null) errors.push(errorItem('needs threshold_bytes', 'threshold_bytes_target'));
    else if (c.threshold_bytes_target >= c.threshold_bytes)
      errors.push(errorItem('must be less than threshold_bytes', 'threshold_bytes_target'));
  }
  if (c.threshold_action !== 'no_action' && c.threshold_files === null && c.threshold_bytes === null) {
    errors.push(
      errorItem(`threshold_action ${c.threshold_action} needs threshold_files or threshold_bytes`, 'threshold_action'),
    );
  }
  if (c.threshold_action === 'delete_lru') {
    if (c.threshold_files !== null && c.threshold_files_target === null)
      errors.push(errorItem('delete_lru needs threshold_files_target', 'threshold_files_target'));
    if (c.threshold_bytes !== null && c.threshold_bytes_target === null)
      errors.push(errorItem('delete_lru needs threshold_bytes_target', 'threshold_bytes_target'));
  }
  if (c.type !== 'internal') {
    const ext = c.external_attributes;
    if (!ext || !(ext.bucket || ext.container))
      errors.push(
        errorItem(
          `a ${c.type} container needs external_attributes with its bucket or container`,
          'external_attributes',
        ),
      );
  } else if (c.external_attributes) {
    errors.push(errorItem('only external containers take external_attributes', 'external_attributes'));
  }
  const overlap = c.allowed_classifications.filter((x) => c.blocked_classifications.includes(x));
  if (overlap.length > 0)
    errors.push(
      errorItem(`classifications both allowed and blocked: ${overlap.join(', ')}`, 'blocked_classifications'),
    );
  if (errors.length > 0) throw new UnprocessableError({ errors });
}

const pct = (free: number, of: number): number =>
  of <= 0 ? 0 : Math.max(0, Math.round(((of - free) / of) * 10000) / 100);

/** Derived status fields, always computed from the counters, never stored. */
export function containerStatus(
  c: ContainerSettings & {
    total_files: number;
    total_bytes: number;
    threshold_total_files: number;
    threshold_total_bytes: number;
  },
) {
  return {
    available_bytes_percent: pct(c.total_bytes, c.quota_bytes),
    available_files_percent: pct(c.total_files, c.quota_files),
    threshold_available_bytes_percent:
      c.threshold_bytes === null ? null : pct(c.threshold_total_bytes, c.threshold_bytes),
    threshold_available_files_percent:
      c.threshold_files === null ? null : pct(c.threshold_total_files, c.threshold_files),
  };
}

/** True when either threshold that is set is reached ("exceeded when either set value is reached"). */
export function thresholdReached(c: {
  threshold_files: number | null;
  threshold_bytes: number | null;
  threshold_total_files: number;
  threshold_total_bytes: number;
}): boolean {
  return (
    (c.threshold_files !== null && c.threshold_total_files >= c.threshold_files) ||
    (c.threshold_bytes !== null && c.threshold_total_bytes >= c.threshold_bytes)
  );
}

/** The 422 for a second container or file with the same key set, naming the one that has it. */
export function uniqueConflict(referenceSid: string, what: 'file' | 'container'): UnprocessableError {
  return UnprocessableError.field('unique', `${what} with the same set of keys already exists`, referenceSid);
}

/**
 * The key set of a container or file as one comparable string: the scope, then the key fields in
 * the table's order (stored in `unique_key`, so the order is part of the stored data).
 */
export function uniqueKey(scope: string, k: KeyValues): string {
  return JSON.stringify([scope, ...KEY_FIELDS.map((f) => k[f])]);
}
