import type { ApnsJob } from './apns-job';
import type { FcmJob } from './fcm-job';

/** A slice of a send, as plain data (it crosses to a worker thread): FCM or APNs. */
export type SendJob = FcmJob | ApnsJob;
