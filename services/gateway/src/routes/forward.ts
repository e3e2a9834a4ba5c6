import type { Request, RequestHandler, Response } from 'express';
import type { GatewayRequest } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';
import { sendReply } from '../http/respond';
import { bodyKind, type RouteDef } from '../http/route-def';
import { callerIfAny } from '../auth/caller';
import { runningKeyOf } from '../idempotency/running-key';

/** The absolute public URL of this request (pagination links keep every query parameter). */
export function publicUrl(baseUrl: string, req: Request): string {
  return `${baseUrl}${req.url}`;
}

/** The `:name` segments of the path (no route has a `*` wildcard, whose value would be a list). */
function pathParams(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.params)) if (typeof value === 'string') params[name] = value;
  return params;
}

/** The GatewayRequest a service receives for this call. */
export function toGatewayRequest(req: Request, res: Response, baseUrl: string, body: unknown): GatewayRequest {
  const principal = callerIfAny(res);
  return {
    principal: principal ?? { partner_sid: '', login: '', scopes: [], token_sid: null },
    params: pathParams(req),
    query: { ...req.query },
    body,
    url: publicUrl(baseUrl, req),
  };
}

/**
 * Forwards the call to its service and maps the reply as-is: `{status, body}` is sent, `{status,
 * error}` is sent as the error body (a busy service's 429 or 503 with its Retry-After). Bus timeouts
 * and missing or lost services reject (504/503) and reach the error handler.
 */
export function forward(route: RouteDef, bus: Bus, baseUrl: string, timeoutMs: number): RequestHandler {
  const subject = route.subject;
  if (!subject)
    throw new Error(`route ${route.method.toUpperCase()} ${route.path} has neither a subject nor a handler`);
  return async (req, res) => {
    const body = bodyKind(route) === 'none' ? undefined : req.body;
    const reply = await bus.request(subject, payloadOf(route, req, res, baseUrl, body), {
      timeoutMs,
      requestId: String(req.headers['x-request-id']),
      // One partner's unanswered calls open its own circuit first (circuit-breaker-bus.ts).
      caller: callerIfAny(res)?.partner_sid || undefined,
    });
    sendReply(res, reply);
  };
}

/**
 * What the service receives: a GatewayRequest (with the caller's own SID as `callerParam`), or
 * for the password grant the form and the client address (identity throttles failures by both).
 */
function payloadOf(
  route: RouteDef,
  req: Request,
  res: Response,
  baseUrl: string,
  body: unknown,
): GatewayRequest | { form: unknown; client_ip?: string } {
  if (route.passwordGrant) return { form: body, client_ip: req.ip };
  const request = toGatewayRequest(req, res, baseUrl, body);
  // A write with an Idempotency-Key: the service keeps its answer under it too (platform's kept-answers.ts).
  const keyed = runningKeyOf(res)?.keyedWrite();
  if (keyed) request.idempotency = keyed;
  if (route.callerParam) request.params[route.callerParam] = request.principal.partner_sid;
  return request;
}
