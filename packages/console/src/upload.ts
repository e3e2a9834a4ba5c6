import { PatchbayApiError, type Schemas } from '@patchbay/client';

/** The File fields the console sends with an upload (`file_object`). */
export interface UploadFields {
  container_sid: string;
  name?: string;
  publish?: 'no' | 'file_access_name' | 'file_sid';
  type?: 'file' | 'audio';
  desired_format?: string;
  desired_bitrate?: number;
}

/**
 * Uploads one file as multipart (`file_object` + `data`) with XMLHttpRequest — fetch cannot report
 * upload progress — calling `onProgress(sent, total)` as bytes leave. Resolves with the File (201).
 */
export function uploadFile(
  apiRoot: string,
  token: string,
  fields: UploadFields,
  file: Blob,
  onProgress: (sent: number, total: number) => void,
): Promise<Schemas['File']> {
  const form = new FormData();
  form.append('file_object', JSON.stringify(fields));
  form.append('data', file, fields.name ?? 'upload');
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiRoot}/storage/files`);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => reject(new Error('the upload failed: the connection was lost'));
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the error keeps the text */
      }
      // why: a 201 of the upload route is the File created (JSON.parse is untyped).
      if (xhr.status === 201) resolve(body as Schemas['File']);
      else
        reject(
          PatchbayApiError.from(
            new Response(null, {
              status: xhr.status,
              statusText: xhr.statusText,
              headers: { 'retry-after': xhr.getResponseHeader('retry-after') ?? '' },
            }),
            body,
          ),
        );
    };
    xhr.send(form);
  });
}
