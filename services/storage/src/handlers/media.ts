import {
  BadRequestError,
  ApiError,
  ConflictError,
  EndpointLookupReplySchema,
  ForbiddenError,
  NotFoundError,
  PlaybackQuerySchema,
  RecordingQuerySchema,
  Subjects,
  UnavailableError,
  compileValidator,
  errorItem,
  unwrapReply,
  type EndpointLookupReply,
  type PlaybackOpenReply,
  type RecordingPrepareRequest,
  type PlaybackOpenRequest,
  type PublishedCheckRequest,
} from '@patchbay/contracts';
import { checkPlayback, recordingTarget } from '../domain/media-rules';
import { uploadFields } from '../domain/file-fields';
import type { FileDoc } from '../repo';
import { contentModified } from '../serialize';
import { ensureDefaultContainer } from './containers';
import type { StorageContext } from './context';
import { openPendingUpload, type PrepareReply } from './uploads';

const validateRecordingQuery = compileValidator(RecordingQuerySchema, { fromStrings: true });
const validatePlaybackQuery = compileValidator(PlaybackQuerySchema, { fromStrings: true });
const validateEndpoint = compileValidator(EndpointLookupReplySchema);

/**
 * The media plane's storage side (docs/interface-notes.md, Media plane): which container a recording goes
 * to and the prepare step of its upload (the same commit as any upload follows), what an endpoint
 * may play, and whether a Voicemail greeting names a published file. The endpoint rules are in
 * domain/media-rules.ts; the endpoint itself is asked of the endpoint service.
 */
export function mediaHandlers(ctx: StorageContext) {
  const { repo } = ctx;

  /** The gateway checked the scope already; a message from elsewhere on the bus is held to it too. */
  function operatorOnly(principal: { scopes: string[] }): void {
    if (!principal.scopes.includes('media.manage')) throw new ForbiddenError();
  }

  async function endpointOf(endpointSid: string): Promise<EndpointLookupReply> {
    try {
      return validateEndpoint(
        unwrapReply(
          await ctx.bus.request(
            Subjects.endpoint.lookup,
            { endpoint_sid: endpointSid },
            { timeoutMs: ctx.busTimeoutMs },
          ),
        ),
      );
    } catch (err) {
      if (err instanceof ApiError && err.status < 500)
        throw new NotFoundError('Cannot find item by SID', [
          errorItem('cannot find an endpoint with this SID', 'endpoint_sid'),
        ]);
      throw err instanceof ApiError
        ? err
        : new UnavailableError('the endpoint service did not answer', [], { cause: err });
    }
  }

  /** The container `sid` of the partner, or that partner's default when `sid` is null; 404 otherwise. */
  async function containerOf(partnerSid: string, sid: string | null, field: string) {
    const c = sid
      ? await repo.containers.findOne({ container_sid: sid, partner_sid: partnerSid })
      : await ensureDefaultContainer(ctx, partnerSid);
    if (!c)
      throw new NotFoundError('Cannot find item by SID', [
        errorItem("cannot find a container of the endpoint's partner with this SID", field),
      ]);
    return c;
  }

  /** A file by its publish_uri under this file server: the file, and whether it is published under that uri. */
  async function fileByUri(uri: string): Promise<{ file: FileDoc; published: boolean } | null> {
    const prefix = `${ctx.storageUrl}/f/`;
    if (!uri.startsWith(prefix)) return null;
    let id: string;
    try {
      id = decodeURIComponent(uri.slice(prefix.length).split(/[?#]/)[0]);
    } catch {
      return null;
    }
    const bySid = await repo.files.findOne({ file_sid: id });
    const file = bySid ?? (await repo.files.findOne({ file_access_name: id }));
    if (!file) return null;
    const container = await repo.containers.findOne({ container_sid: file.container_sid });
    const published = (container?.allow_publish ?? true) && file.publish === (bySid ? 'file_sid' : 'file_access_name');
    return { file, published };
  }

  return {
    [Subjects.storage.recordingPrepare]: async (req: RecordingPrepareRequest): Promise<PrepareReply> => {
      operatorOnly(req.principal);
      const q = validateRecordingQuery(req.query);
      const endpoint = await endpointOf(q.endpoint_sid);
      const target = recordingTarget(endpoint, q.container_sid);
      const c = await containerOf(
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
      return openPendingUpload(ctx, c, fields, {
        endpoint_sid: endpoint.endpoint_sid,
        endpoint_type: endpoint.type,
        call_sid: q.call_sid ?? null,
      });
    },

    [Subjects.storage.playbackOpen]: async (req: PlaybackOpenRequest): Promise<PlaybackOpenReply> => {
      operatorOnly(req.principal);
      const q = validatePlaybackQuery(req.query);
      // Neither or both: a malformed request (400), naming each of the two (decisions §41).
      if ((q.file_sid === undefined) === (q.uri === undefined)) {
        const say = q.file_sid === undefined ? 'give the file by file_sid or by uri' : 'give file_sid or uri, not both';
        throw new BadRequestError('validation error', [errorItem(say, 'file_sid'), errorItem(say, 'uri')]);
      }
      const endpoint = await endpointOf(q.endpoint_sid);
      const found =
        q.uri !== undefined
          ? await fileByUri(q.uri)
          : await repo.files
              .findOne({ file_sid: String(q.file_sid) })
              .then((file) => (file ? { file, published: false } : null));
      if (!found)
        throw new NotFoundError('Cannot find item by SID', [
          errorItem('cannot find this file', q.uri !== undefined ? 'uri' : 'file_sid'),
        ]);
      const { file, published } = found;
      // Conference endpoints play from one container: their own, or their conference's.
      let container: string | null = null;
      if (endpoint.type === 'conference')
        container = (await containerOf(endpoint.partner_sid, endpoint.container_sid, 'endpoint_sid')).container_sid;
      if (endpoint.type === 'conference_playback' && endpoint.conference_endpoint_sid) {
        const conference = await endpointOf(endpoint.conference_endpoint_sid).catch(() => null);
        if (conference)
          container = (await containerOf(conference.partner_sid, conference.container_sid, 'endpoint_sid'))
            .container_sid;
      }
      checkPlayback(
        endpoint,
        { partner_sid: file.partner_sid, container_sid: file.container_sid, published },
        { by: q.uri !== undefined ? 'uri' : 'file_sid', container_sid: container },
      );
      // A media server cannot play an age file (decisions §43): greetings and prompts belong in plain containers.
      if (file.encryption)
        throw new ConflictError([
          errorItem('the file is encrypted: media servers cannot play it', q.uri !== undefined ? 'uri' : 'file_sid'),
        ]);
      return {
        file_sid: file.file_sid,
        blob_key: file.blob_key,
        file_bytes: file.file_bytes,
        mime_type: file.mime_type,
        name: file.name,
        date_modified: contentModified(file).toISOString(),
      };
    },

    [Subjects.storage.publishedCheck]: async (req: PublishedCheckRequest) => {
      const found = await fileByUri(req.uri);
      if (!found || !found.published || found.file.partner_sid !== req.partner_sid) throw new NotFoundError();
      return { file_sid: found.file.file_sid };
    },
  };
}
