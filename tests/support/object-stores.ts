/**
 * Object storage servers for the external-container tests, all offline: s3rver and Azurite, each
 * its own process on a free port, started by the test, and the adapters themselves to look into a
 * bucket without going through Patchbay.
 */
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { AzureBlobStore } from '@patchbay/blob-azure';
import { GcsBlobStore } from '@patchbay/blob-gcs';
import { S3BlobStore } from '@patchbay/blob-s3';
import type { BlobStore } from '@patchbay/platform';
import { startS3rver, type S3rverHandle } from '../../packages/blob-s3/test/s3rver-server';
import { DEV_ACCOUNT, DEV_KEY, startAzurite, type AzuriteHandle } from '../../packages/blob-azure/test/azurite-server';
import { startFakeGcs, type FakeGcs } from '../../packages/blob-gcs/test/fake-gcs-server';

export { startS3rver, startAzurite, startFakeGcs, DEV_ACCOUNT, DEV_KEY };
export type { S3rverHandle, AzuriteHandle, FakeGcs };

/** A bucket of the local GCS fake (no auth calls with a custom endpoint and no credentials). */
export function gcsBucket(server: FakeGcs, bucket: string): BlobStore {
  return new GcsBlobStore({ bucket, endpoint: server.endpoint, allowPrivateAddresses: true });
}

/** An S3 bucket of `server` as the adapter sees it (s3rver checks the key id, S3RVER, not the signature). */
export function s3Bucket(server: S3rverHandle, bucket: string): BlobStore {
  return new S3BlobStore({
    bucket,
    endpoint: server.endpoint,
    credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
    allowPrivateAddresses: true,
  });
}

/** Creates `container` in Azurite and returns it as the adapter sees it. */
export async function azureContainer(server: AzuriteHandle, container: string): Promise<BlobStore> {
  await new BlobServiceClient(server.endpoint, new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY))
    .getContainerClient(container)
    .createIfNotExists();
  return new AzureBlobStore({
    container,
    endpoint: server.endpoint,
    credentials: { account_name: DEV_ACCOUNT, account_key: DEV_KEY },
    allowPrivateAddresses: true,
  });
}

/** Every key of a store, and the bytes of one. */
export async function keysOf(store: BlobStore): Promise<string[]> {
  const out: string[] = [];
  for await (const k of store.list!('')) out.push(k);
  return out;
}

export async function bytesOf(store: BlobStore, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of await store.get(key)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
