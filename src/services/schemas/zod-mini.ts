import { en } from 'zod/locales';
import { z } from 'zod/mini';

/**
 * zod/mini for the schemas the first page needs (app configuration, media, users, credits,
 * coupon, stored jobs): the same validation core as `zod`, a fraction of its weight in the
 * initial bundle. zod/mini loads no locale by itself; English gives the same issue messages as
 * `zod` (which sets English too), so errors read the same whichever loaded first.
 */
z.config(en());

export { z };
