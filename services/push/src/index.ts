export { startPushService } from './service';
export { PushConfig, loadPushSettings, pushSettings } from './config';
export type { PushSettings } from './config';
