export { createApp } from './app';
export { startGateway } from './start';
export { GatewayConfig } from './config';
export type { GatewaySettings } from './config';
