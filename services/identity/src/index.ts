export { startIdentityService } from './service';
export { IdentityConfig, identitySettings } from './config';
export type { IdentitySettings } from './config';
