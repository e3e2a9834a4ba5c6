import { bootService } from '@patchbay/platform';
import { TranscoderConfig, transcoderSettings } from './config';
import { startTranscoderService } from './service';

bootService({ name: 'transcoder', config: TranscoderConfig, blobs: true, start: (deps, config) => startTranscoderService(deps, transcoderSettings(config)) });
