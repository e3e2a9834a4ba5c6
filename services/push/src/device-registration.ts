import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuplicateKeyError } from '@patchbay/contracts';
import type { DeviceDoc } from './domain/documents';
import type { PushRepo } from './repo';

/** A registration's identity: what `reuse` matches on. The token is hashed (it can be long). */
function registrationKey(d: Pick<DeviceDoc, 'partner_sid' | 'type' | 'environment' | 'token'>): string {
  return [d.partner_sid, d.type, d.environment, createHash('sha256').update(d.token).digest('hex')].join('|');
}

const sameRegistration = (a: DeviceDoc, b: DeviceDoc) =>
  a.partner_sid === b.partner_sid && a.type === b.type && a.environment === b.environment && a.token === b.token;

/** How long a registration waits for the device a concurrent one claimed to appear. */
const CLAIM_WAIT_MS = 1000;
const CLAIM_POLL_MS = 20;
const ATTEMPTS = 5;

/**
 * Registers `doc`, or with `reuse` returns the device already registered with the same partner,
 * type, environment and token — also when several registrations race (an app registering at
 * start-up and on a token refresh at once, or two push replicas on one database). A registration
 * first claims its key (a unique index) and only the winner writes a device, so no other device
 * ever appears, even briefly; the others wait for the winner's device and answer with it. A claim
 * whose device never appears (its writer died) or no longer matches is taken over.
 */
export async function registerDevice(repo: PushRepo, doc: DeviceDoc, reuse: boolean): Promise<DeviceDoc> {
  if (!reuse) {
    await repo.devices.insertOne(doc);
    return doc;
  }
  const key = registrationKey(doc);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const claim = await repo.deviceKeys.findOne({ key });
    if (claim) {
      const claimed = await claimedDevice(repo, claim.device_sid);
      if (claimed && sameRegistration(claimed, doc)) return claimed;
      // Gone, moved to another token, or never written: this registration takes the key over.
      const taken = await repo.deviceKeys.findOneAndUpdate(
        { key, device_sid: claim.device_sid },
        { $set: { device_sid: doc.device_sid, application_sid: doc.application_sid } },
      );
      if (!taken) continue; // someone else took it over first: look again
      await repo.devices.insertOne(doc);
      return doc;
    }
    // No claim: a device registered before claims existed is adopted; else this one is made.
    const legacy = await repo.devices.findOne(
      { partner_sid: doc.partner_sid, token: doc.token, type: doc.type, environment: doc.environment },
      { sort: { date_created: 1 } },
    );
    const mine = legacy ?? doc;
    try {
      await repo.deviceKeys.insertOne({ key, device_sid: mine.device_sid, application_sid: mine.application_sid });
    } catch (err) {
      if (err instanceof DuplicateKeyError) continue; // claimed meanwhile: answer with that one
      throw err;
    }
    if (!legacy) await repo.devices.insertOne(doc);
    return mine;
  }
  throw new Error(`device registration did not settle after ${ATTEMPTS} attempts`);
}

/** The claimed device, waiting a little for it when its claim was just made and it is being written. */
async function claimedDevice(repo: PushRepo, deviceSid: string): Promise<DeviceDoc | null> {
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const device = await repo.devices.findOne({ device_sid: deviceSid });
    if (device || Date.now() > deadline) return device;
    await sleep(CLAIM_POLL_MS);
  }
}

/**
 * Forgets the registrations of deleted devices, or of a device whose token, type or environment
 * changed, so the next registration of it does not wait for a device that will not come.
 */
export async function releaseRegistrations(
  repo: PushRepo,
  filter: { device_sid: string } | { application_sid: string },
): Promise<void> {
  await repo.deviceKeys.deleteMany(filter);
}
