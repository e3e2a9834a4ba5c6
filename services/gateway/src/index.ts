export { createApp } from './app';
export { startGateway } from './start';
export { GatewayConfig, gatewaySettings } from './config';
export type { GatewaySettings } from './config';
export { apiDocument } from './openapi/api-document';
