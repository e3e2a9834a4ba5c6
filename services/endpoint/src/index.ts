export { startEndpointService } from './service';
export { EndpointConfig, DEFAULT_ENDPOINT_SETTINGS, endpointSettings, endpointSettingsFromEnv } from './config';
export type { EndpointSettings } from './config';
