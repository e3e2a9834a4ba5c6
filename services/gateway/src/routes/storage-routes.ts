import { Subjects as S } from '@patchbay/contracts';
import { downloadRoute } from '../upload/download-route';
import { uploadRoute } from '../upload/upload-routes';
import type { RouteDef } from './route-def';

const MANAGE = 'storage.manage';

/** Containers and file metadata (JSON); upload and download, which stream (upload/). */
export const STORAGE_ROUTES: RouteDef[] = [
  { method: 'post', path: '/storage/containers', subject: S.storage.containerCreate, scopes: [MANAGE, 'storage.create'] },
  { method: 'get', path: '/storage/containers', subject: S.storage.containerList, scopes: [MANAGE, 'storage.read'] },
  { method: 'get', path: '/storage/containers/:container_sid', subject: S.storage.containerGet, scopes: [MANAGE, 'storage.read'] },
  { method: 'patch', path: '/storage/containers/:container_sid', subject: S.storage.containerUpdate, scopes: [MANAGE, 'storage.update'] },
  { method: 'put', path: '/storage/containers/:container_sid', subject: S.storage.containerReplace, scopes: [MANAGE, 'storage.update'] },
  { method: 'delete', path: '/storage/containers/:container_sid', subject: S.storage.containerDelete, scopes: [MANAGE, 'storage.delete'] },
  { method: 'get', path: '/storage/files', subject: S.storage.fileList, scopes: [MANAGE, 'storage.read'] },
  { method: 'get', path: '/storage/files/:file_sid', subject: S.storage.fileGet, scopes: [MANAGE, 'storage.read'] },
  { method: 'patch', path: '/storage/files/:file_sid', subject: S.storage.fileUpdate, scopes: [MANAGE, 'storage.update'] },
  { method: 'put', path: '/storage/files/:file_sid', subject: S.storage.fileReplace, scopes: [MANAGE, 'storage.update'] },
  { method: 'delete', path: '/storage/files/:file_sid', subject: S.storage.fileDelete, scopes: [MANAGE, 'storage.delete'] },
  { method: 'post', path: '/storage/files', scopes: [MANAGE, 'storage.create'], body: 'stream', handler: uploadRoute },
  { method: 'get', path: '/storage/files/:file_sid/data', subject: S.storage.fileOpen, scopes: [MANAGE, 'storage.read'], handler: downloadRoute },
];
