export { startFileServer } from './start';
export type { FileServerSettings } from './start';
export { FileServerConfig, fileServerSettings } from './config';
