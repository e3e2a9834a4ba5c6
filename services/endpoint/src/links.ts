import {
  ApiError,
  StorageClient,
  Subjects,
  UnavailableError,
  UnprocessableError,
  errorItem,
  type ErrorItem,
} from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import type { EndpointRepo } from './repo';
import type { EndpointState } from './domain/endpoint-state';

const SECURE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks the references an endpoint makes to other objects, before it is written:
 * - `properties.container_sid` must name a container of the same partner. Only storage knows, so it
 *   is asked over the bus (`Subjects.storage.containerCheck`); a 4xx answer is a 422 naming the
 *   field. When storage does not answer (no responders, timeout, failure) the write is refused with
 *   503: a reference that cannot be checked is never accepted.
 * - `properties.conference_endpoint_sid` must name a Conference endpoint of the same partner.
 * - `properties.greeting` (Voicemail) must be the `publish_uri` of a published file of the same
 *   partner (a file played through its publish_uri must be published: docs/interface-notes.md,
 *   Endpoints and containers); storage is asked (`Subjects.storage.publishedCheck`), with the same
 *   422/503 rule as the container.
 * Only references that changed from `previous` are checked (null: a new endpoint).
 */
export class EndpointLinks {
  private readonly log: Logger;
  private readonly storage: StorageClient;

  constructor(
    private readonly repo: EndpointRepo,
    bus: Bus,
    logger: Logger,
    timeoutMs: number,
  ) {
    this.log = logger.child({ mod: 'links' });
    this.storage = new StorageClient(bus, { timeoutMs });
  }

  async check(
    partnerSid: string,
    next: EndpointState,
    previous: EndpointState | null,
    requestId?: string,
  ): Promise<void> {
    const problems: ErrorItem[] = [];
    const conference = next.properties.conference_endpoint_sid;
    if (conference && conference !== previous?.properties.conference_endpoint_sid) {
      const found =
        SECURE_ID.test(conference) &&
        (await this.repo.endpoints.findOne(
          { endpoint_sid: conference, partner_sid: partnerSid, type: 'conference' },
          { projection: { endpoint_sid: 1 } },
        ));
      if (!found)
        problems.push(
          errorItem('cannot find a conference endpoint with this SID', 'properties.conference_endpoint_sid'),
        );
    }
    const container = next.properties.container_sid;
    if (container && container !== previous?.properties.container_sid) {
      const notFound = errorItem('cannot find a container with this SID', 'properties.container_sid');
      const problem = SECURE_ID.test(container)
        ? await this.askStorage(
            Subjects.storage.containerCheck,
            partnerSid,
            () => this.storage.checkContainer(partnerSid, container, { requestId }),
            notFound,
            requestId,
          )
        : notFound;
      if (problem) problems.push(problem);
    }
    const greeting = next.properties.greeting;
    if (greeting && greeting !== previous?.properties.greeting) {
      const unpublished = errorItem(
        'greeting must be the publish_uri of a published file of this partner',
        'properties.greeting',
      );
      const problem = await this.askStorage(
        Subjects.storage.publishedCheck,
        partnerSid,
        () => this.storage.checkPublished(partnerSid, greeting, { requestId }),
        unpublished,
        requestId,
      );
      if (problem) problems.push(problem);
    }
    if (problems.length > 0) throw new UnprocessableError({ errors: problems });
  }

  /** `refused` when storage answers 4xx; null when it confirms; throws 503 when storage cannot say. */
  private async askStorage(
    subject: string,
    partnerSid: string,
    ask: () => Promise<unknown>,
    refused: ErrorItem,
    requestId?: string,
  ): Promise<ErrorItem | null> {
    try {
      await ask();
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) return refused;
      this.log.warn(
        { err, partner_sid: partnerSid, subject, requestId },
        'reference check failed: storage did not answer',
      );
      throw new UnavailableError({
        message: 'service unavailable',
        errors: [
          errorItem(
            'the storage service did not answer, so this reference cannot be checked; try again later',
            refused.field,
          ),
        ],
        cause: err,
      });
    }
  }
}
