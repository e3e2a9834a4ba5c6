/**
 * Preloaded into the test's s3rver process (`node --require`): makes s3rver replace objects the way
 * S3 does, atomically, and answer a range of an empty object as S3 does, with 416.
 *
 * s3rver 3.7 writes an object in place (truncate, then stream into the same file) and its metadata
 * file the same way, so a GET racing an overwrite reads a cut file and the server resets the
 * connection. S3 itself never shows a part of an object, and the blob-store contract tests exactly
 * that; without this patch the test would measure s3rver, not the adapter. The object and its
 * metadata files are written to temporary files next to the final ones and renamed over them, so an
 * open file is never rewritten. (s3rver still takes an object's size from a stat before it opens the
 * file, so a reader can pair the old size with the new file: harmless for the contract's overwrite
 * race, whose two versions have the same size.) Temporary names do not end in `._S3rver_object`,
 * so listings never show them.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const FilesystemStore = require('s3rver/lib/stores/filesystem');
const S3Object = require('s3rver/lib/models/object');

const putObject = FilesystemStore.prototype.putObject;
const getObject = FilesystemStore.prototype.getObject;

FilesystemStore.prototype.putObject = async function atomicPutObject(object) {
  const final = this.getResourcePath(object.bucket, object.key, 'object');
  const tmp = `${final}.${crypto.randomUUID()}.tmp`;
  // The original writes to getResourcePath(bucket, key, 'object'): point that one path at the temp file.
  const store = Object.create(this, {
    getResourcePath: {
      value: (bucket, key, resource) =>
        bucket === object.bucket && key === object.key && resource === 'object'
          ? tmp
          : this.getResourcePath(bucket, key, resource),
    },
  });
  try {
    const result = await putObject.call(store, object);
    await fs.rename(tmp, final);
    return result;
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
};

FilesystemStore.prototype.putMetadata = async function atomicPutMetadata(bucket, key, metadata, md5) {
  // What the original keeps: the allowed headers and user metadata.
  const json = Object.fromEntries(
    Object.entries(metadata).filter(
      ([name]) => S3Object.ALLOWED_METADATA.includes(name) || name.startsWith('x-amz-meta-'),
    ),
  );
  if (md5) await replace(this.getResourcePath(bucket, key, 'object.md5'), md5);
  await replace(this.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(json, null, 2));
};

async function replace(file, content) {
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
}

// s3rver takes the last byte of an empty object to be byte 0 (`Math.max(0, size - 1)`), promises
// one byte, sends none and the connection is reset. S3 answers 416 InvalidRange with the size, 0:
// what s3rver's controller does for an object that comes back with a range and no content.
FilesystemStore.prototype.getObject = async function emptyRangeGetObject(bucket, key, options) {
  if (options && options.start !== undefined) {
    const metadata = await this.getMetadata(bucket, key).catch(() => null);
    if (metadata && Number(metadata['content-length']) === 0) {
      const object = new S3Object(bucket, key, null, metadata);
      object.range = { start: options.start, end: options.end };
      return object;
    }
  }
  return getObject.call(this, bucket, key, options);
};
