import { Type } from '@sinclair/typebox';
import {
  ContainerUsageQuerySchema,
  ContainerUsageSchema,
  ContainerPatchSchema,
  ContainerPutSchema,
  ContainerSchema,
  FilePatchSchema,
  FilePutSchema,
  FileSchema,
  FileUploadSchema,
  ListEnvelopeSchema,
  Subjects,
} from '@patchbay/contracts';
import { downloadRoute } from '../upload/download-route';
import { uploadRoute } from '../upload/upload-routes';
import type { RouteDef } from '../http/route-def';
import { ENCRYPTION_KEY_ROUTES } from './encryption-key-routes';

const MANAGE = 'storage.manage';

/** The multipart form of an upload: `file_object` (the File fields as JSON), then `data` (the bytes). */
const UploadForm = Type.Object(
  {
    file_object: Type.String({
      contentMediaType: 'application/json',
      description:
        'The File fields as JSON (FileUpload); only `container_sid` is ' +
        'required. A text field or a file part (`curl -F ' +
        'file_object=@fields.json`).',
    }),
    data: Type.String({
      contentMediaType: 'application/octet-stream',
      description:
        'The file content, before or after `file_object`: a file part, or a ' +
        'part without a filename (`curl -F data=<file`), read as the file all ' +
        'the same.',
    }),
  },
  { required: ['file_object', 'data'] },
);

/** With `application/octet-stream` the File fields come as query parameters (`container_sid` then required). */
const UploadQuery = Type.Partial(FileUploadSchema, { additionalProperties: false });

const UPLOAD = [
  'Multipart (`file_object` JSON, then `data`) or the raw bytes as ' +
    '`application/octet-stream` with the File fields as query parameters.',
  'The body streams into storage; quota, classification, unique key set ' +
    'and threshold are checked before and after (422, nothing stored).',
  'With `type=audio` and `desired_format` (or `desired_bitrate` on an ' +
    'mp3) the file is transcoded after the 201: ' +
    '`content_transcoding_progress` goes 0 → 100.',
  'Without a usable ffmpeg that request is a 503 naming what is missing.',
].join(' ');

/** Containers and file metadata (JSON); upload and download, which stream (upload/). */
export const STORAGE_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/storage/containers',
    subject: Subjects.storage.containerCreate,
    scopes: [MANAGE, 'storage.create'],
    doc: {
      summary: 'Create a container',
      description: 'No field is required. Two containers per partner by default (external ones do not count).',
      request: ContainerPatchSchema,
      responses: { 200: ContainerSchema },
    },
  },
  {
    method: 'get',
    path: '/storage/containers',
    subject: Subjects.storage.containerList,
    scopes: [MANAGE, 'storage.read'],
    doc: { summary: 'List containers', list: 'offset', responses: { 200: ListEnvelopeSchema(ContainerSchema) } },
  },
  {
    method: 'get',
    path: '/storage/containers/:container_sid',
    subject: Subjects.storage.containerGet,
    scopes: [MANAGE, 'storage.read'],
    doc: { summary: 'Get a container', fields: true, responses: { 200: ContainerSchema } },
  },
  {
    method: 'get',
    path: '/storage/containers/:container_sid/usage',
    subject: Subjects.storage.containerUsage,
    scopes: [MANAGE, 'storage.read'],
    doc: {
      summary: "A container's files and bytes per day",
      description:
        "One snapshot of the counters per UTC day (the last of the threshold-worker's ticks that day; today: " +
        'the latest), `from` to `to` (both included, at most 400 days; default the 30 days before today). A day ' +
        'without a snapshot (before the container, or while no worker ran) is absent.',
      query: ContainerUsageQuerySchema,
      responses: { 200: ContainerUsageSchema },
    },
  },
  {
    method: 'patch',
    path: '/storage/containers/:container_sid',
    subject: Subjects.storage.containerUpdate,
    scopes: [MANAGE, 'storage.update'],
    doc: {
      summary: 'Update a container (only the fields given)',
      request: ContainerPatchSchema,
      responses: { 200: ContainerSchema },
    },
  },
  {
    method: 'put',
    path: '/storage/containers/:container_sid',
    subject: Subjects.storage.containerReplace,
    scopes: [MANAGE, 'storage.update'],
    doc: {
      summary: "Replace a container's settings",
      request: ContainerPutSchema,
      responses: { 200: ContainerSchema },
    },
  },
  {
    method: 'delete',
    path: '/storage/containers/:container_sid',
    subject: Subjects.storage.containerDelete,
    scopes: [MANAGE, 'storage.delete'],
    doc: {
      summary: 'Delete an empty container',
      description: 'A container that still holds files: 409. The default container: 422.',
      responses: { 204: null },
    },
  },
  ...ENCRYPTION_KEY_ROUTES,
  {
    method: 'get',
    path: '/storage/files',
    subject: Subjects.storage.fileList,
    scopes: [MANAGE, 'storage.read'],
    doc: {
      summary: 'List files',
      description: 'Filter example: `container_sid eq <sid> and name like "%.wav"`.',
      list: 'offset',
      responses: { 200: ListEnvelopeSchema(FileSchema) },
    },
  },
  {
    method: 'get',
    path: '/storage/files/:file_sid',
    subject: Subjects.storage.fileGet,
    scopes: [MANAGE, 'storage.read'],
    doc: { summary: 'Get a file', fields: true, responses: { 200: FileSchema } },
  },
  {
    method: 'patch',
    path: '/storage/files/:file_sid',
    subject: Subjects.storage.fileUpdate,
    scopes: [MANAGE, 'storage.update'],
    doc: { summary: 'Update a file (only the fields given)', request: FilePatchSchema, responses: { 200: FileSchema } },
  },
  {
    method: 'put',
    path: '/storage/files/:file_sid',
    subject: Subjects.storage.fileReplace,
    scopes: [MANAGE, 'storage.update'],
    doc: { summary: "Replace a file's writable fields", request: FilePutSchema, responses: { 200: FileSchema } },
  },
  {
    method: 'delete',
    path: '/storage/files/:file_sid',
    subject: Subjects.storage.fileDelete,
    scopes: [MANAGE, 'storage.delete'],
    doc: { summary: 'Delete a file (its data and cached copies too)', responses: { 204: null } },
  },
  {
    method: 'post',
    path: '/storage/files',
    scopes: [MANAGE, 'storage.create'],
    body: 'stream',
    handler: uploadRoute,
    doc: {
      summary: 'Upload a file',
      description: UPLOAD,
      query: UploadQuery,
      request: { content: { 'multipart/form-data': UploadForm, 'application/octet-stream': null } },
      responses: { 201: FileSchema },
      errors: [413, 415, 422],
    },
  },
  {
    method: 'get',
    path: '/storage/files/:file_sid/data',
    subject: Subjects.storage.fileOpen,
    scopes: [MANAGE, 'storage.read'],
    handler: downloadRoute,
    doc: {
      summary: 'Download the data of a file',
      description: 'No ranges (use the public link for those). Updates `date_last_accessed`, which nothing else does.',
      responses: {
        200: {
          binary: ['*/*'],
          description: 'The file, with Content-Type, Content-Length and Content-Disposition: attachment.',
        },
      },
    },
  },
];
