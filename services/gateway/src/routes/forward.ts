import type { Request, RequestHandler, Response } from 'express';
import type { GatewayRequest, Principal } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';
import { sendJson, sendReply } from '../http/respond';
import { bodyKind, type RouteDef } from './route-def';

/** The absolute public URL of this request (pagination links keep every query parameter). */
export function publicUrl(baseUrl: string, req: Request): string {
  return `${baseUrl}${req.url}`;
}

/** The GatewayRequest a service receives for this call. */
export function toGatewayRequest(req: Request, res: Response, baseUrl: string, body: unknown): GatewayRequest {
  const principal = res.locals.principal as Principal | undefined;
  return {
    principal: principal ?? { partner_sid: '', login: '', scopes: [], token_sid: null },
    params: { ...(req.params as Record<string, string>) },
    query: { ...(req.query as Record<string, unknown>) },
    body,
    url: publicUrl(baseUrl, req),
  };
}

/**
 * Forwards the call to its service and maps the reply as-is: `{status, body}` is sent, `{status,
 * error}` is sent as the error body. Bus timeouts and missing services reject (504/503) and reach
 * the error handler.
 */
export function forward(route: RouteDef, bus: Bus, baseUrl: string, timeoutMs: number): RequestHandler {
  const subject = route.subject;
  if (!subject) throw new Error(`route ${route.method.toUpperCase()} ${route.path} has neither a subject nor a handler`);
  return async (req, res) => {
    const body = bodyKind(route) === 'none' ? undefined : req.body;
    // The token grant checks a password: identity throttles failures by login and client address.
    const payload = route.auth === false ? { form: body, client_ip: req.ip } : toGatewayRequest(req, res, baseUrl, body);
    if (route.callerParam) (payload as GatewayRequest).params[route.callerParam] = (res.locals.principal as Principal).partner_sid;
    const reply = await bus.request(subject, payload, { timeoutMs, requestId: String(req.headers['x-request-id']) });
    sendReply(res, reply);
  };
}
