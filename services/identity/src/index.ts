export { startIdentityService } from './service';
export type { BootstrapRequest } from './service';
