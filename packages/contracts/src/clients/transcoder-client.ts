import type { ProbeReply, ProbeRequest, TranscodeReply, TranscodeRequest } from '../messages/transcoder';
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

  private async call<T>(subject: string, payload: unknown, opts?: CallOptions): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { ...this.defaults, ...opts }));
  }
}
