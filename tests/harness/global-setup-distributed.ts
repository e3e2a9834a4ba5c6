import { setupMode } from './global-setup';

export default async function globalSetup(): Promise<void> {
  await setupMode('distributed');
}
