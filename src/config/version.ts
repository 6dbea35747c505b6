/** Set by vite.config.ts from package.json (`define`); "dev" where no build set it. */
declare const __KINORA_VERSION__: string | undefined;

export const APP_VERSION: string = typeof __KINORA_VERSION__ === 'string' ? __KINORA_VERSION__ : 'dev';
