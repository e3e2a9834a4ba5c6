import { bootService } from '@patchbay/platform';
import { startIdentityService } from './service';

bootService({ name: 'identity', docs: true, start: (deps) => startIdentityService(deps) });
