/** Health and identity methods of the API. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { schemaVersion } from '../../registry/database.ts';
import { APP_VERSION } from '../app-version.ts';
import { PRODUCT_NAME } from '../data-dir.ts';
import { runDoctor } from '../doctor.ts';
import type { ApiContext } from './context.ts';

/** System: doctor and appInfo. */
export function systemApi({ bindery, host }: ApiContext): Pick<ApiHandlers, 'doctor' | 'appInfo'> {
  return {
    doctor: async () => {
      const { checks } = await runDoctor(bindery.dataDir, { core: () => bindery });
      return { dataDir: bindery.dataDir, ok: checks.every((check) => check.ok), checks };
    },
    appInfo: () => ({
      name: PRODUCT_NAME,
      version: APP_VERSION,
      dataDir: bindery.dataDir,
      host,
      platform: process.platform,
      schemaVersion: schemaVersion(bindery.db),
    }),
  };
}
