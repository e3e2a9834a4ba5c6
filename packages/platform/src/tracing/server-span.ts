import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import { startRequestSpan, tracingInstalled } from './head-sampling';

/**
 * A lean SERVER span for a hot public path (the file server's `/f/`), instead of the HTTP
 * instrumentation's: that one cost about as much CPU as a cached 64 KiB range reply itself (its
 * attribute collection, a dozen attributes to encode, and an event-emitter binding per request
 * that wraps every listener). This one has the stable HTTP semantic-convention attributes only —
 * `http.request.method`, `url.path`, `http.route` (when one matched) and
 * `http.response.status_code` — and the caller's W3C trace context (`traceparent`) as its parent.
 */

/**
 * An http.Server the HTTP instrumentation leaves alone, for a listener that makes its own span
 * (inServerSpan). The instrumentation wraps `http.Server.prototype.emit`; even a request its ignore
 * hook skips still pays for a suppressed context and both emitters bound to it (about a tenth of a
 * cached range reply's CPU), so this server emits as the plain EventEmitter that `http.Server` is.
 */
export class SelfTracedServer extends http.Server {
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    return EventEmitter.prototype.emit.call(this, event, ...args);
  }
}

/** Methods the conventions name; any other is `_OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * Runs `handle` inside a new SERVER span for `req`, child of the trace context its headers carry
 * (or the root of a new trace), sampled before it is made (head-sampling.ts): the span ends when
 * `res` closes, with the status code sent (5xx: status ERROR). `route` is the matched route template
 * (`/f/:id`), undefined when none matched. Without the SDK started, `handle` just runs.
 */
export function inServerSpan(
  req: IncomingMessage,
  res: ServerResponse,
  route: string | undefined,
  handle: () => void,
): void {
  // Without the SDK there is no span to make and no context to enter (the API's no-ops would do nothing).
  if (!tracingInstalled()) return handle();
  const given = req.method ?? '';
  const method = METHODS.has(given) ? given : '_OTHER';
  const attributes = (): Attributes => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    return {
      'http.request.method': method,
      'url.path': q < 0 ? url : url.slice(0, q),
      ...(route && { 'http.route': route }),
    };
  };
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = startRequestSpan(route ? `${method} ${route}` : method, SpanKind.SERVER, attributes, parent);
  // A span the sampler dropped records nothing at its end: no listener for it.
  if (span.isRecording())
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  context.with(trace.setSpan(parent, span), handle);
}
