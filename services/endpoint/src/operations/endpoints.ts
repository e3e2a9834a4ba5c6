import { randomUUID } from 'node:crypto';
import {
  BadRequestError,
  ConflictError,
  DuplicateKeyError,
  NotFoundError,
  UnprocessableError,
  compileValidator,
  errorItem,
  parseWithRelated,
  EndpointCreateSchema,
  EndpointReplaceSchema,
  EndpointUpdateSchema,
  type Endpoint,
  type GatewayRequest,
  type ListEnvelope,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply } from '@patchbay/platform';
import { DEFAULT_LIMIT, applyFieldFilter, parseFieldParams, requestedLimit, runList } from '@patchbay/query';
import { assertAddressFormat } from '../domain/addresses';
import { stateOf, toDoc } from '../domain/endpoint-doc';
import { applyUpdate, buildEndpoint, type EndpointState } from '../domain/endpoint-state';
import { generateValues } from '../domain/generate';
import { createViolations, updateViolations } from '../domain/rules';
import { ENDPOINT_LIST_SPEC } from '../domain/list-specs';
import { PartnerLookup } from '../related';
import type { EndpointDoc } from '../domain/documents';
import { OPEN_IP_INDEX } from '../repo';
import { partnerScoped } from '../scoped-source';
import { serializeEndpoint } from '../domain/serialize';
import type { EndpointContext } from '../context';
import { callbackUrlProblem } from '../callbacks/callback-url';

const validateCreate = compileValidator(EndpointCreateSchema);
const validateUpdate = compileValidator(EndpointUpdateSchema);
const validateReplace = compileValidator(EndpointReplaceSchema);

/** The exact 409 of docs/interface-notes.md, Status codes and errors. */
export const duplicateIpConflict = (): ConflictError =>
  new ConflictError({ errors: [errorItem('duplicate ip for auth_required=false')] });

/*
 * The operations behind `/endpoints`. Each checks, in order: the caller's own endpoint (404
 * otherwise, also for another partner's), the body's schema (400), the object rules (422), the
 * references to other objects (422, or 503 when storage cannot say), and finally the write, where
 * the unique index refuses a duplicate open IP and port (409). The body is checked here, not in the
 * handler, because of that order: an update's body is checked against the endpoint it finds.
 */

/** POST /endpoints. */
export async function createEndpoint(ctx: EndpointContext, req: GatewayRequest, requestId?: string): Promise<Endpoint> {
  const input = validateCreate(req.body ?? {});
  assertAddressFormat(input.addresses);
  const state = buildEndpoint(input, generateValues(input.type, ctx.settings.hostedApiUrl));
  const violations = createViolations(state, input.properties, req.principal.scopes);
  if (violations.length > 0) throw new UnprocessableError({ errors: violations });
  await checkCallbackUrl(ctx, state, null);
  const partnerSid = req.principal.partner_sid;
  await ctx.links.check(partnerSid, state, null, requestId);
  const doc = toDoc(state, {
    endpoint_sid: randomUUID(),
    partner_sid: partnerSid,
    date_created: new Date(),
    revision: 0,
  });
  await write(() => ctx.repo.endpoints.insertOne(doc));
  logOf(ctx).info(
    { endpoint_sid: doc.endpoint_sid, partner_sid: partnerSid, type: doc.type, requestId },
    'endpoint created',
  );
  return serializeEndpoint(doc);
}

/**
 * PATCH (`replace` false) or PUT (`replace` true: the whole object, nested objects replaced).
 * A compare-and-set on the endpoint's revision: the rules and references are checked against
 * exactly the state the change is written over, and only the fields that change are written.
 */
export async function updateEndpoint(
  ctx: EndpointContext,
  req: GatewayRequest,
  replace: boolean,
  requestId?: string,
): Promise<Endpoint> {
  const replaceNested = parseNestedObjects(req.query) || replace;
  const filter = { endpoint_sid: String(req.params.endpoint_sid ?? ''), partner_sid: req.principal.partner_sid };
  const { after } = await write(() =>
    compareAndSet(ctx.repo.endpoints, filter, async (current) => {
      if (current.type === 'system_gateway')
        throw UnprocessableError.field('type', 'the System Gateway endpoint cannot be changed through the API');
      const input = (replace ? validateReplace : validateUpdate)(req.body ?? {});
      assertAddressFormat(input.addresses);
      const before = stateOf(current);
      const next = applyUpdate(before, input, replaceNested);
      const violations = updateViolations(before, next, input.properties, req.principal.scopes);
      if (violations.length > 0) throw new UnprocessableError({ errors: violations });
      await checkCallbackUrl(ctx, next, before);
      await ctx.links.check(current.partner_sid, next, before, requestId);
      const doc = toDoc(next, {
        endpoint_sid: current.endpoint_sid,
        partner_sid: current.partner_sid,
        date_created: current.date_created,
        revision: current.revision,
      });
      return changedFields(current, doc, [...new Set([...Object.keys(current), ...Object.keys(doc)])]);
    }),
  );
  logOf(ctx).info({ endpoint_sid: after.endpoint_sid, partner_sid: after.partner_sid, requestId }, 'endpoint updated');
  return serializeEndpoint(after);
}

/** GET one endpoint, with `include_fields`/`exclude_fields` and `with_related`. */
export async function getEndpoint(
  ctx: EndpointContext,
  req: GatewayRequest,
  requestId?: string,
): Promise<Record<string, unknown>> {
  const selection = parseFieldParams(req.query, ENDPOINT_LIST_SPEC);
  const withRelated = parseWithRelated(req.query);
  const doc = await ownedEndpoint(ctx, req);
  const partner = withRelated ? await new PartnerLookup(ctx.identity, requestId).get(doc.partner_sid) : undefined;
  return applyFieldFilter(serializeEndpoint(doc, partner), selection.include, selection.exclude);
}

/** GET /endpoints: the caller's endpoints, a page at a time (a large page holds a slot of `ctx.lists`). */
export async function listEndpoints(
  ctx: EndpointContext,
  req: GatewayRequest,
  requestId?: string,
  replied?: Promise<void>,
): Promise<ListEnvelope<Record<string, unknown>>> {
  const withRelated = parseWithRelated(req.query);
  const partners = new PartnerLookup(ctx.identity, requestId);
  const caller = req.principal.partner_sid;
  return ctx.lists.run(caller, requestedLimit(req.query, DEFAULT_LIMIT), replied, () =>
    runList({
      collection: partnerScoped(ctx.repo.endpoints, caller),
      query: req.query,
      spec: ENDPOINT_LIST_SPEC,
      url: req.url,
      serialize: async (d: EndpointDoc) =>
        serializeEndpoint(d, withRelated ? await partners.get(d.partner_sid) : undefined),
    }),
  );
}

/** DELETE: never the System Gateway, nor a conference a playback endpoint names. */
export async function deleteEndpoint(ctx: EndpointContext, req: GatewayRequest, requestId?: string) {
  const doc = await ownedEndpoint(ctx, req);
  if (doc.type === 'system_gateway')
    throw UnprocessableError.field('type', 'the System Gateway endpoint cannot be deleted');
  if (doc.type === 'conference') {
    // A playback endpoint reads only its conference's recordings: deleting the conference would
    // leave it refused for ever (decisions §41).
    const playbacks = await ctx.repo.endpoints.find(
      {
        partner_sid: doc.partner_sid,
        type: 'conference_playback',
        'properties.conference_endpoint_sid': doc.endpoint_sid,
      },
      { projection: { endpoint_sid: 1 }, limit: 20, sort: { endpoint_sid: 1 } },
    );
    if (playbacks.length > 0)
      throw new ConflictError({
        errors: playbacks.map((p) =>
          errorItem(
            `conference_playback endpoint ${p.endpoint_sid} names this conference ` +
              `(properties.conference_endpoint_sid)`,
            'endpoint_sid',
            p.endpoint_sid,
          ),
        ),
      });
  }
  await ctx.repo.endpoints.deleteOne({ endpoint_sid: doc.endpoint_sid, partner_sid: doc.partner_sid });
  logOf(ctx).info({ endpoint_sid: doc.endpoint_sid, partner_sid: doc.partner_sid, requestId }, 'endpoint deleted');
  return reply(204, null);
}

const logOf = (ctx: EndpointContext) => ctx.log.child({ mod: 'endpoints' });

/** A `callback_url` that is set or changed, checked as the callbacks will check it (422 naming it). */
async function checkCallbackUrl(
  ctx: EndpointContext,
  next: EndpointState,
  previous: EndpointState | null,
): Promise<void> {
  const url = next.properties.callback_url;
  if (typeof url !== 'string' || url === previous?.properties.callback_url) return;
  const problem = await callbackUrlProblem(url, ctx.settings.callbacks.allowPrivate);
  if (problem) throw new UnprocessableError({ errors: [problem] });
}

/** The caller's endpoint named by the path; another partner's is as unknown as a missing one. */
async function ownedEndpoint(ctx: EndpointContext, req: GatewayRequest): Promise<EndpointDoc> {
  const doc = await ctx.repo.endpoints.findOne({
    endpoint_sid: String(req.params.endpoint_sid ?? ''),
    partner_sid: req.principal.partner_sid,
  });
  if (!doc) throw new NotFoundError();
  return doc;
}

/** Runs a write; the open-IP unique index refusing it is the 409 of the interface. */
async function write<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof DuplicateKeyError && (err.index === OPEN_IP_INDEX || err.index === undefined))
      throw duplicateIpConflict();
    throw err;
  }
}

/** `nested_objects`: absent, or `replace` (its only accepted value). */
function parseNestedObjects(query: Record<string, unknown>): boolean {
  const v = Object.hasOwn(query, 'nested_objects') ? query.nested_objects : undefined;
  if (v === undefined || v === '') return false;
  if (v === 'replace') return true;
  throw BadRequestError.field('nested_objects', "the only accepted value of nested_objects is 'replace'");
}
