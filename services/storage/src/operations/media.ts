import {
  ApiError,
  BadRequestError,
  ConflictError,
  EndpointClient,
  EndpointLookupReplySchema,
  ForbiddenError,
  NotFoundError,
  UnavailableError,
  compileValidator,
  errorItem,
  type EndpointLookupReply,
  type PlaybackOpenReply,
  type PlaybackQuery,
  type Prepared,
  type Principal,
  type RecordingQuery,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { ContainerDoc, FileDoc } from '../domain/documents';
import { uploadFields } from '../domain/file-fields';
import { checkPlayback, recordingTarget } from '../domain/media-rules';
import { contentModified } from '../domain/serialize';
import { ensureDefaultContainer } from './containers';
import { recordPendingUpload } from './uploads';
import { fileUnderKey } from './upload-idempotency';

/*
 * The media plane's storage side (docs/interface-notes.md, Media plane): which container a recording
 * goes to and the prepare step of its upload (the same commit as any upload follows), what an
 * endpoint may play, and whether a Voicemail greeting names a published file. The endpoint rules are
 * in domain/media-rules.ts; the endpoint itself is asked of the endpoint service.
 */

const validateEndpoint = compileValidator(EndpointLookupReplySchema);

/** The gateway checked the scope already; a message from elsewhere on the bus is held to it too. */
export function operatorOnly(principal: { scopes: string[] }): void {
  if (!principal.scopes.includes('media.manage')) throw new ForbiddenError();
}

/** A recording about to stream in: its container chosen by the endpoint rules, its upload prepared. */
export async function prepareRecording(
  ctx: StorageContext,
  principal: Pick<Principal, 'partner_sid'>,
  q: RecordingQuery,
  idempotencyKey?: string,
): Promise<Prepared> {
  const endpoint = await endpointOf(ctx, q.endpoint_sid);
  const target = recordingTarget(endpoint, q.container_sid);
  const c = await containerOf(
    ctx,
    endpoint.partner_sid,
    target.container_sid,
    target.chosen_by === 'record_verb' ? 'container_sid' : 'endpoint_sid',
  );
  const fields = uploadFields(
    {
      container_sid: c.container_sid,
      type: 'audio',
      content_classification: 'media',
      ...(q.name ? { name: q.name } : {}),
    },
    c,
  );
  ctx.log.info(
    {
      endpoint_sid: endpoint.endpoint_sid,
      container_sid: c.container_sid,
      chosen_by: target.chosen_by,
      call_sid: q.call_sid,
    },
    'recording starting',
  );
  return recordPendingUpload(ctx, c, fields, {
    recording: {
      endpoint_sid: endpoint.endpoint_sid,
      endpoint_type: endpoint.type,
      call_sid: q.call_sid ?? null,
      ...(endpoint.max_duration ? { max_duration: endpoint.max_duration } : {}),
    },
    retryOf: await fileUnderKey(ctx, principal, idempotencyKey),
  });
}

/** What an endpoint is to play (by file_sid or publish_uri), if the endpoint rules let it. */
export async function findPlayback(ctx: StorageContext, q: PlaybackQuery): Promise<PlaybackOpenReply> {
  // Neither or both: a malformed request (400), naming each of the two (decisions §41).
  if ((q.file_sid === undefined) === (q.uri === undefined)) {
    const say = q.file_sid === undefined ? 'give the file by file_sid or by uri' : 'give file_sid or uri, not both';
    throw new BadRequestError({
      message: 'validation error',
      errors: [errorItem(say, 'file_sid'), errorItem(say, 'uri')],
    });
  }
  const endpoint = await endpointOf(ctx, q.endpoint_sid);
  const found =
    q.uri !== undefined
      ? await fileByUri(ctx, q.uri)
      : await ctx.repo.files
          .findOne({ file_sid: String(q.file_sid) })
          .then((file) => (file ? { file, published: false } : null));
  if (!found)
    throw new NotFoundError({
      message: 'Cannot find item by SID',
      errors: [errorItem('cannot find this file', q.uri !== undefined ? 'uri' : 'file_sid')],
    });
  const { file, published } = found;
  // Conference endpoints play from one container: their own, or their conference's.
  let container: string | null = null;
  if (endpoint.type === 'conference')
    container = (await containerOf(ctx, endpoint.partner_sid, endpoint.container_sid, 'endpoint_sid')).container_sid;
  if (endpoint.type === 'conference_playback' && endpoint.conference_endpoint_sid) {
    const conference = await endpointOf(ctx, endpoint.conference_endpoint_sid).catch(() => null);
    if (conference)
      container = (await containerOf(ctx, conference.partner_sid, conference.container_sid, 'endpoint_sid'))
        .container_sid;
  }
  checkPlayback(
    endpoint,
    { partner_sid: file.partner_sid, container_sid: file.container_sid, published },
    { by: q.uri !== undefined ? 'uri' : 'file_sid', container_sid: container },
  );
  // A media server cannot play an age file (decisions §43): greetings and prompts belong in plain containers.
  if (file.encryption)
    throw new ConflictError({
      errors: [
        errorItem('the file is encrypted: media servers cannot play it', q.uri !== undefined ? 'uri' : 'file_sid'),
      ],
    });
  return {
    file_sid: file.file_sid,
    blob_key: file.blob_key,
    file_bytes: file.file_bytes,
    mime_type: file.mime_type,
    name: file.name,
    date_modified: contentModified(file).toISOString(),
  };
}

/** Internal (endpoint's greeting check): the partner's file published under `uri`, or 404. */
export async function checkPublished(
  ctx: StorageContext,
  partnerSid: string,
  uri: string,
): Promise<{ file_sid: string }> {
  const found = await fileByUri(ctx, uri);
  if (!found || !found.published || found.file.partner_sid !== partnerSid) throw new NotFoundError();
  return { file_sid: found.file.file_sid };
}

/** The endpoint, asked of the endpoint service: a 4xx is this request's 404, no answer a 503. */
async function endpointOf(ctx: StorageContext, endpointSid: string): Promise<EndpointLookupReply> {
  try {
    const endpoints = new EndpointClient(ctx.bus, { timeoutMs: ctx.busTimeoutMs });
    return validateEndpoint(await endpoints.lookup(endpointSid));
  } catch (err) {
    if (err instanceof ApiError && err.status < 500)
      throw new NotFoundError({
        message: 'Cannot find item by SID',
        errors: [errorItem('cannot find an endpoint with this SID', 'endpoint_sid')],
      });
    throw err instanceof ApiError
      ? err
      : new UnavailableError({ message: 'the endpoint service did not answer', cause: err });
  }
}

/** The container `sid` of the partner, or that partner's default when `sid` is null; 404 otherwise. */
async function containerOf(
  ctx: StorageContext,
  partnerSid: string,
  sid: string | null,
  field: string,
): Promise<ContainerDoc> {
  const c = sid
    ? await ctx.repo.containers.findOne({ container_sid: sid, partner_sid: partnerSid })
    : await ensureDefaultContainer(ctx, partnerSid);
  if (!c)
    throw new NotFoundError({
      message: 'Cannot find item by SID',
      errors: [errorItem("cannot find a container of the endpoint's partner with this SID", field)],
    });
  return c;
}

/** A file by its publish_uri under this file server: the file, and whether it is published under that uri. */
async function fileByUri(ctx: StorageContext, uri: string): Promise<{ file: FileDoc; published: boolean } | null> {
  const prefix = `${ctx.storageUrl}/f/`;
  if (!uri.startsWith(prefix)) return null;
  let id: string;
  try {
    id = decodeURIComponent(uri.slice(prefix.length).split(/[?#]/)[0]);
  } catch {
    return null;
  }
  const bySid = await ctx.repo.files.findOne({ file_sid: id });
  const file = bySid ?? (await ctx.repo.files.findOne({ file_access_name: id }));
  if (!file) return null;
  const container = await ctx.repo.containers.findOne({ container_sid: file.container_sid });
  const published = (container?.allow_publish ?? true) && file.publish === (bySid ? 'file_sid' : 'file_access_name');
  return { file, published };
}
