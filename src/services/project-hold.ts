import type { HoldProjectKind } from '@/config/project-hold-texts';
import { apiDelete, apiPostJson } from '@/services/http';
import type { CallOptions } from '@/services/media';
import { albumQuoteSchema, storyQuoteSchema, type ProjectQuoteAnswer } from '@/services/schemas/project-hold';

/**
 * One quote for a whole project (Kinora's, issue 21 item 6): the same three calls for an AI story
 * (story/{id}/…) and a batch album (batch/{id}/…), each answer parsed with its project's schema.
 */

export interface HoldProjectRef {
  kind: HoldProjectKind;
  id: string;
}

const PATHS: Readonly<Record<HoldProjectKind, string>> = { story: 'story', album: 'batch' };
const SCHEMAS = { story: storyQuoteSchema, album: albumQuoteSchema } as const;

const pathOf = (project: HoldProjectRef): string => `${PATHS[project.kind]}/${encodeURIComponent(project.id)}`;

/** POST {story|batch}/{id}/quote: what everything the project still has to make costs, with its open hold and the free balance. Holds nothing. */
export const quoteProject = (project: HoldProjectRef, options: CallOptions = {}): Promise<ProjectQuoteAnswer> =>
  apiPostJson(`${pathOf(project)}/quote`, {}, SCHEMAS[project.kind], { signal: options.signal });

/** POST {story|batch}/{id}/hold: sets the quote aside from the balance (402 when short); carries the Idempotency-Key. */
export const holdProjectCredits = (project: HoldProjectRef, options: CallOptions & { idempotencyKey: string }): Promise<ProjectQuoteAnswer> =>
  apiPostJson(`${pathOf(project)}/hold`, {}, SCHEMAS[project.kind], { idempotencyKey: options.idempotencyKey, signal: options.signal });

/** DELETE {story|batch}/{id}/hold: releases the hold; what it still kept returns to the balance. */
export const releaseProjectCredits = (project: HoldProjectRef, options: CallOptions = {}): Promise<ProjectQuoteAnswer> =>
  apiDelete(`${pathOf(project)}/hold`, SCHEMAS[project.kind], { signal: options.signal });
