import type { PushResult } from '@patchbay/contracts';

/** What became of a job: a result per token, in the order of its `tokens`, and what to log. */
export interface JobResult {
  results: PushResult[];
  retries: Array<{ n: number; devices: number; detail: string }>;
  /** Indexes (into `tokens`) that ended as provider_error, and the first reason. */
  failed?: { indexes: number[]; detail: string };
  /** APNs answered ExpiredProviderToken to the job's provider token (the sender signs a new one). */
  expiredToken?: boolean;
}

/** Collects a retry loop's log events into a JobResult (the worker cannot log as the sender). */
export function jobLog(): {
  retries: JobResult['retries'];
  failed: () => JobResult['failed'];
  onRetry: (n: number, sids: string[], detail: string) => void;
  onProviderError: (sids: string[], detail: string) => void;
} {
  const retries: JobResult['retries'] = [];
  let failed: JobResult['failed'];
  return {
    retries,
    failed: () => failed,
    onRetry: (n, sids, detail) => retries.push({ n, devices: sids.length, detail }),
    onProviderError: (sids, detail) => {
      failed = { indexes: sids.map(Number), detail };
    },
  };
}
