import type { Response } from 'express';
import type { Principal } from '@patchbay/contracts';

/** The caller `authenticate` established for each response in flight (gone with the response). */
const callers = new WeakMap<Response, Principal>();

/** Records the authenticated caller of this request (authenticate's job). */
export function setCaller(res: Response, principal: Principal): void {
  callers.set(res, principal);
}

/** The caller of a route behind `authenticate` (every route but the `auth: false` ones). */
export function callerOf(res: Response | undefined): Principal {
  const principal = res && callers.get(res);
  if (!principal) throw new Error('no authenticated caller: the route is not behind authenticate');
  return principal;
}

/** The caller, or undefined on a route without authentication (`auth: false`). */
export function callerIfAny(res: Response): Principal | undefined {
  return callers.get(res);
}
