import { ROUTES } from './routes';

/** The marketing use-case pages of SPEC §2.6; SPEC gives the paths only, these titles name them. */
export const USE_CASE_PAGES = [
  { path: ROUTES.useCases.branding, title: 'Branding' },
  { path: ROUTES.useCases.ecommerce, title: 'E-commerce' },
  { path: ROUTES.useCases.photography, title: 'Photography' },
  { path: ROUTES.useCases.restaurants, title: 'Restaurants' },
] as const;
