import { bootService } from '@patchbay/platform';
import { TranscoderConfig } from './config';
import { startTranscoderService } from './service';

bootService({
  name: 'transcoder',
  config: TranscoderConfig,
  blobs: true,
  start: (deps, config) => startTranscoderService(deps, { scratchDir: config.TRANSCODER_SCRATCH_DIR, concurrency: config.TRANSCODER_CONCURRENCY, timeoutMs: config.TRANSCODER_TIMEOUT_MS, drainMs: config.TRANSCODER_DRAIN_MS }),
});
