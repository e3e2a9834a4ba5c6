export { startTranscoderService } from './service';
export type { TranscoderSettings } from './service';
export { TranscoderConfig, transcoderSettings } from './config';
