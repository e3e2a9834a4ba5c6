export { startRecordsService } from './service';
