import { appConfigurationSchema } from '@/services/schemas/app-config';
import type { AppConfiguration } from '@/config/app-config';
import { apiGet } from '@/services/http';

/** GET frontend-configurations: public (SPEC §6); the appConfig machine caches the answer. */
export const getFrontendConfigurations = (): Promise<AppConfiguration> =>
  apiGet('frontend-configurations', appConfigurationSchema, { auth: 'none' });
