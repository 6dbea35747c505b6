/**
 * The accounts `npm start` seeds into the local sign-in emulator. They exist only in the local
 * emulator, so their passwords are documented rather than secret; set the env variables to choose
 * others.
 */

import { DEVELOPER_GROUP, GUEST_USERNAME } from '../../../src/config/limits.ts';

export interface SeedAccount {
  username: string;
  email: string;
  password: string;
  groups: string[];
  description: string;
}

export function seedAccounts(env: NodeJS.ProcessEnv = process.env): SeedAccount[] {
  return [
    {
      username: GUEST_USERNAME,
      email: 'guest@kinora.local',
      password: env.KINORA_GUEST_PASSWORD ?? 'kinora-guest',
      groups: [],
      description: 'the shared guest account',
    },
    {
      username: 'developer',
      email: 'developer@kinora.local',
      password: env.KINORA_DEVELOPER_PASSWORD ?? 'kinora-developer',
      groups: [DEVELOPER_GROUP],
      description: 'group Developer: bypasses credit checks',
    },
  ];
}
