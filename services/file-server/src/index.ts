export { startFileServer } from './start';
export type { FileServerSettings } from './start';
export { FileServerConfig } from './config';
