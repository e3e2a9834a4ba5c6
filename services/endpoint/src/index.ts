export { startEndpointService } from './service';
export { EndpointConfig, DEFAULT_ENDPOINT_SETTINGS, endpointSettings } from './config';
export type { EndpointSettings } from './config';
