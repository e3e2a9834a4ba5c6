import type {
  ProbeReply,
  ProbeRequest,
  SealedTranscodeReply,
  SealedTranscodeRequest,
  TranscodeReply,
  TranscodeRequest,
} from '../messages/transcoder';
import { unwrapReply } from '../reply';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';

/** What storage and the file server ask of the transcoders, typed (messages/transcoder.ts). */
export class TranscoderClient {
  constructor(
    private readonly bus: BusRequester,
    private readonly defaults: CallOptions = {},
  ) {}

  /** ffprobe's description of a blob; 503 naming the missing piece when `target` cannot be written. */
  probe(req: ProbeRequest, opts?: CallOptions): Promise<ProbeReply> {
    return this.call(Subjects.transcoder.probe, req, opts);
  }

  /** A download-time copy, stored at `output_key`; its size once stored. */
  transcode(req: TranscodeRequest, opts?: CallOptions): Promise<TranscodeReply> {
    return this.call(Subjects.transcoder.transcode, req, opts);
  }

  /** Upload-time transcoding of an encrypted upload, stored encrypted at `output_key` (decisions §43). */
  sealedTranscode(req: SealedTranscodeRequest, opts?: CallOptions): Promise<SealedTranscodeReply> {
    return this.call(Subjects.transcoder.sealedTranscode, req, opts);
  }

  private async call<T>(subject: string, payload: unknown, opts?: CallOptions): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { ...this.defaults, ...opts }));
  }
}
