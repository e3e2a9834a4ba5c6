import { randomBytes, randomUUID } from 'node:crypto';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RecordExportCreateSchema,
  UnprocessableError,
  compileValidator,
  errorItem,
  type Container,
  type ExportKind,
  type GatewayRequest,
  type Principal,
} from '@patchbay/contracts';
import { callbackUrlProblem, reply } from '@patchbay/platform';
import { parseListParams, runList } from '@patchbay/query';
import { defaultExportName, EXPORT_LIST_SPEC, serializeExport, type ExportDoc } from '../domain/export-docs';
import type { RecordKind } from '../domain/record-kinds';
import { sealCallbackKey } from '../secrets/callback-key';
import type { RecordsContext } from '../context';

const validateCreate = compileValidator(RecordExportCreateSchema);
const SECURE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Besides the records' read scope (the route's), an export writes a file: the partner must manage storage. */
const STORAGE_SCOPE = 'storage.manage';

/** One of the caller's exports of `kind`: another partner's export is to it what an unknown one is (404). */
async function ownedExport(ctx: RecordsContext, kind: ExportKind, req: GatewayRequest): Promise<ExportDoc> {
  const sid = String(req.params.export_sid ?? '');
  const doc = SECURE_ID.test(sid)
    ? await ctx.repo.exports.findOne({ partner_sid: req.principal.partner_sid, kind, export_sid: sid.toLowerCase() })
    : null;
  if (!doc) throw new NotFoundError();
  return doc;
}

/**
 * Creates an export of the caller's records of one kind. Checks everything the request alone can break — the body
 * (400 naming the field), the filter (400 naming `filter`, as the list), the storage scope (403), the callback URL
 * and the container (422 naming them) — then queues the job (exports/) and answers 202.
 */
export async function createExport(ctx: RecordsContext, kind: ExportKind, records: RecordKind, req: GatewayRequest) {
  const body = validateCreate(req.body ?? {});
  const principal = req.principal;
  if (!principal.scopes.includes(STORAGE_SCOPE))
    throw new ForbiddenError({
      message: `an export writes a file: the token needs the ${STORAGE_SCOPE} scope too`,
    });
  const filter = body.filter?.trim() ? body.filter : null;
  if (filter) parseListParams({ filter }, records.spec);
  if (body.callback_url) {
    const problem = await callbackUrlProblem(
      body.callback_url,
      ctx.exports.settings.callbacks.allowPrivate,
      'callback_url',
    );
    if (problem) throw new UnprocessableError({ errors: [problem] });
  }
  const container = await targetContainer(ctx, principal.partner_sid, body.container_sid);
  const now = new Date();
  const format = body.format ?? 'ndjson';
  const compression = body.compression ?? 'gzip';
  const key = body.callback_url ? randomBytes(32).toString('base64url') : null;
  const exportSid = randomUUID();
  const doc: ExportDoc = {
    export_sid: exportSid,
    partner_sid: principal.partner_sid,
    kind,
    status: 'queued',
    record_count: 0,
    bytes: 0,
    progress: 0,
    file_sid: null,
    error: null,
    date_created: now,
    date_completed: null,
    filter,
    format,
    compression,
    container_sid: container.container_sid,
    name: body.name ?? defaultExportName(kind, format, compression, now),
    callback:
      body.callback_url && key
        ? {
            url: body.callback_url,
            event_id: randomUUID(),
            // Shown once, in this answer; stored sealed (secrets/callback-key.ts).
            key: sealCallbackKey(ctx.exports.ring, exportSid, key),
            state: 'waiting',
            attempt_count: 0,
            attempts: [],
            date_delivered: null,
            next_attempt_at: null,
            lease_until: null,
          }
        : null,
    principal: actingFor(principal),
    lease_owner: null,
    lease_until: null,
    runs: 0,
    pending_file_sid: null,
  };
  await ctx.repo.exports.insertOne(doc);
  ctx.exports.queued();
  ctx.log.info({ export_sid: doc.export_sid, partner_sid: doc.partner_sid, kind }, 'record export queued');
  return reply(202, { ...serializeExport(doc), ...(key ? { callback_signing_key: key } : {}) });
}

/** The caller's exports of one kind (offset pagination, filter, field filtering). */
export async function listExports(ctx: RecordsContext, kind: ExportKind, req: GatewayRequest) {
  return runList({
    collection: ctx.repo.exports,
    baseFilter: { partner_sid: req.principal.partner_sid, kind },
    query: req.query,
    spec: EXPORT_LIST_SPEC,
    url: req.url,
    serialize: serializeExport,
  });
}

/** One of the caller's exports. */
export async function getExport(ctx: RecordsContext, kind: ExportKind, req: GatewayRequest) {
  return serializeExport(await ownedExport(ctx, kind, req));
}

/** Cancels one of the caller's exports while it is queued or running; 409 once it has ended. */
export async function cancelExport(ctx: RecordsContext, kind: ExportKind, req: GatewayRequest) {
  const doc = await ownedExport(ctx, kind, req);
  const cancelled = await ctx.repo.exports.findOneAndUpdate(
    { export_sid: doc.export_sid, status: { $in: ['queued', 'running'] } },
    {
      $set: {
        status: 'cancelled',
        date_completed: new Date(),
        lease_owner: null,
        lease_until: null,
      },
    },
  );
  if (!cancelled) {
    const now = (await ownedExport(ctx, kind, req)).status;
    throw new ConflictError({
      errors: [errorItem(`the export has ended (${now}); its file, if any, is an ordinary file now`, 'status')],
    });
  }
  ctx.log.info({ export_sid: doc.export_sid, partner_sid: doc.partner_sid }, 'record export cancelled');
  return serializeExport(cancelled);
}

/** The caller as the job acts for it later: no token (a revoked token must not stop an export already accepted). */
function actingFor(p: Principal): Principal {
  return { partner_sid: p.partner_sid, login: p.login, scopes: p.scopes, token_sid: null };
}

/**
 * The container named (one of the caller's containers, internal or external, else 422 naming `container_sid`), or
 * the default.
 */
async function targetContainer(ctx: RecordsContext, partnerSid: string, sid: string | undefined): Promise<Container> {
  return sid
    ? await ctx.exports.storage.checkContainer(partnerSid, sid).catch((err: unknown) => {
        if (err instanceof NotFoundError)
          throw UnprocessableError.field('container_sid', 'no container of yours has this container_sid');
        throw err;
      })
    : await ctx.exports.storage.defaultContainer(partnerSid);
}
