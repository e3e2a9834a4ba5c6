import { PatchbayApiError } from '../../src';

/** The PatchbayApiError a call fails with; fails the test when it succeeds or fails otherwise. */
export async function rejection(call: Promise<unknown>): Promise<PatchbayApiError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof PatchbayApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail with a PatchbayApiError');
}
