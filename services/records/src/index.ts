export { startRecordsService } from './service';
export { RecordsConfig, settings as recordsSettings, type RecordsSettings } from './config';
