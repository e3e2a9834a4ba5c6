import { bootService } from '@patchbay/platform';
import { RecordsConfig, recordsSettings } from './config';
import { startRecordsService } from './service';

bootService({
  name: 'records',
  docs: true,
  config: RecordsConfig,
  start: (deps, config) => startRecordsService(deps, recordsSettings(config)),
});
