import { bootService } from '@patchbay/platform';
import { startRecordsService } from './service';

bootService({ name: 'records', docs: true, start: (deps) => startRecordsService(deps) });
