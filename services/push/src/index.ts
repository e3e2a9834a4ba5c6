export { startPushService } from './service';
export { PushConfig, loadPushSettings, pushSettingsFrom } from './config';
export type { PushSettings } from './config';
