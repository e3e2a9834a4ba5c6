import { isIP } from 'node:net';
import { errorItem, type ErrorItem, type ExternalStoreType } from '@patchbay/contracts';
import type { PlainAttributes } from './external-attributes';

/**
 * The names in an external container's attributes, by each provider's own rules, checked before
 * anything is sent anywhere: a name the provider would refuse is a clear 422 here, and no name can
 * change the path or host a request goes to (a bucket `..` climbing a path segment, a bucket or
 * account that is an address). Each problem names its field (`external_attributes.<field>`).
 */
export function storageNameViolations(type: ExternalStoreType, attrs: PlainAttributes): ErrorItem[] {
  const out: ErrorItem[] = [];
  const check = (field: string, value: unknown, rule: (v: string) => string | undefined) => {
    if (typeof value !== 'string' || value === '') return;
    const problem = rule(value);
    if (problem) out.push(errorItem(problem, `external_attributes.${field}`));
  };
  if (type === 'aws_s3') check('bucket', attrs.bucket, s3Bucket);
  if (type === 'gcp_storage') check('bucket', attrs.bucket, gcsBucket);
  if (type === 'azure_blob') check('container', attrs.container, azureContainer);
  check('prefix', attrs.prefix, prefix);
  const creds = attrs.credentials;
  if (type === 'azure_blob' && creds) check('credentials', creds.account_name, azureAccount);
  return out;
}

const looksLikeIPv4 = (v: string) => /^\d+\.\d+\.\d+\.\d+$/.test(v) || isIP(v) !== 0;

/** S3 general purpose bucket naming rules (AWS "Bucket naming rules"). */
function s3Bucket(v: string): string | undefined {
  if (v.length < 3 || v.length > 63) return 'an S3 bucket name is 3 to 63 characters long';
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(v))
    return (
      'an S3 bucket name has lowercase letters, digits, dots and hyphens, ' +
      'and starts and ends with a letter or digit'
    );
  if (v.includes('..')) return 'an S3 bucket name has no two adjacent dots';
  if (looksLikeIPv4(v)) return 'an S3 bucket name is not an IP address';
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(v) || /(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(v))
    return 'an S3 bucket name does not use a prefix or suffix S3 reserves';
  return undefined;
}

/** Cloud Storage bucket naming rules (Google "Bucket names"). */
function gcsBucket(v: string): string | undefined {
  const parts = v.split('.');
  if (v.length < 3 || v.length > 222 || parts.some((p) => p.length === 0 || p.length > 63))
    return 'a Cloud Storage bucket name is 3 to 63 characters long (222 with dots, 63 between two dots)';
  if (!/^[a-z0-9][a-z0-9._-]*[a-z0-9]$/.test(v))
    return (
      'a Cloud Storage bucket name has lowercase letters, digits, dashes, underscores and dots, and starts and ' +
      'ends with a letter or digit'
    );
  if (looksLikeIPv4(v)) return 'a Cloud Storage bucket name is not an IP address';
  if (v.startsWith('goog') || /g[o0][o0]g[l1]e/.test(v))
    return 'a Cloud Storage bucket name does not start with "goog" or contain "google"';
  return undefined;
}

/** Azure Blob Storage container naming rules ("Naming and referencing containers"). */
function azureContainer(v: string): string | undefined {
  if (v.length < 3 || v.length > 63) return 'an Azure container name is 3 to 63 characters long';
  if (!/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9]))*$/.test(v))
    return (
      'an Azure container name has lowercase letters, digits and single hyphens between them, and starts with a ' +
      'letter or digit'
    );
  return undefined;
}

/** Azure storage account names: they become the host name `<account>.blob.core.windows.net`. */
function azureAccount(v: string): string | undefined {
  return /^[a-z0-9]{3,24}$/.test(v) ? undefined : 'account_name is 3 to 24 lowercase letters and digits';
}

/** A key prefix: `/`-separated segments of A-Z a-z 0-9 . _ -, no `.` or `..` segment, no leading `/`. */
function prefix(v: string): string | undefined {
  if (v.length > 512) return 'a prefix is at most 512 characters long';
  if (v.startsWith('/')) return 'a prefix does not start with /';
  const segments = v.replace(/\/$/, '').split('/');
  if (segments.some((s) => !/^[A-Za-z0-9._-]+$/.test(s) || s === '.' || s === '..'))
    return 'a prefix is segments of A-Z a-z 0-9 . _ - between single slashes, none of them . or ..';
  return undefined;
}
