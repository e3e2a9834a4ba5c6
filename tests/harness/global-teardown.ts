import { teardownAll } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  await teardownAll();
}
