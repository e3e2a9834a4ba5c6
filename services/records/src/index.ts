export { startRecordsService } from './service';
export { RecordsConfig, recordsSettings, type RecordsSettings } from './config';
