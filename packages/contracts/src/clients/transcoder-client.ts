import {
  TranscoderRequests,
  type ProbeReply,
  type ProbeRequest,
  type SealedTranscodeReply,
  type SealedTranscodeRequest,
  type TranscodeReply,
  type LiveStartReply,
  type LiveStartRequest,
  type TranscodeRequest,
} from '../messages/transcoder';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller } from './table-caller';

/** What storage and the file server ask of the transcoders, typed by TranscoderRequests (messages/transcoder.ts). */
export class TranscoderClient {
  private readonly caller: TableCaller<typeof TranscoderRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, TranscoderRequests, defaults);
  }

  /** ffprobe's description of a blob; 503 naming the missing piece when `target` cannot be written. */
  probe(req: ProbeRequest, opts?: CallOptions): Promise<ProbeReply> {
    return this.caller.call(Subjects.transcoder.probe, req, opts);
  }

  /** A download-time copy, stored at `output_key`; its size once stored. */
  transcode(req: TranscodeRequest, opts?: CallOptions): Promise<TranscodeReply> {
    return this.caller.call(Subjects.transcoder.transcode, req, opts);
  }

  /** A download-time copy as it is made: where to pull its bytes, or its size when it was made whole. */
  stream(req: LiveStartRequest, opts?: CallOptions): Promise<LiveStartReply> {
    return this.caller.call(Subjects.transcoder.stream, req, opts);
  }

  /** Upload-time transcoding of an encrypted upload, stored encrypted at `output_key` (decisions §43). */
  sealedTranscode(req: SealedTranscodeRequest, opts?: CallOptions): Promise<SealedTranscodeReply> {
    return this.caller.call(Subjects.transcoder.sealedTranscode, req, opts);
  }
}
