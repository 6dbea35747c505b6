import { BATCH_CONCAT_TOOL } from '../../../src/config/batch.ts';
import { jobToolOf } from '../../../src/config/job-tools.ts';
import { PUSH_ALERT_TEXTS, STORY_PART_NAMES } from '../../../src/config/push-texts.ts';
import { ROUTES } from '../../../src/config/routes.ts';
import type { PushAlertPayload } from '../../../src/services/schemas/push.ts';
import type { AlertedJob, JobGroup } from '../db/push.ts';

/**
 * What an alert says: a small JSON object (title, body, the page to open, a tag) that the service
 * worker (public/sw.js) shows as a notification. Kept small: a push message carries at most 4 KB.
 */

const failedish = (status: string): boolean => status === 'failed' || status === 'nsfw';
const ERROR_MAX = 200;

/** One job that finished on its own (not a part of a story or a batch). */
export function jobAlert(job: AlertedJob): PushAlertPayload {
  const tool = jobToolOf(job.tool);
  const url = tool.path ?? ROUTES.history;
  const tag = `kinora-job-${job.id}`;
  if (job.status === 'nsfw') return { title: PUSH_ALERT_TEXTS.jobNsfw(tool.title), body: PUSH_ALERT_TEXTS.refunded, url, tag };
  if (job.status === 'failed') {
    const error = job.error ?? PUSH_ALERT_TEXTS.refunded;
    return { title: PUSH_ALERT_TEXTS.jobFailed(tool.title), body: error.length > ERROR_MAX ? `${error.slice(0, ERROR_MAX - 1)}…` : error, url, tag };
  }
  return { title: PUSH_ALERT_TEXTS.jobSucceeded(tool.title), body: PUSH_ALERT_TEXTS.resultReady, url, tag };
}

/** A story step's (or a batch's clips') parts, announced together when the last one ended. */
export function groupAlert(group: JobGroup, jobs: readonly AlertedJob[]): PushAlertPayload {
  const failed = jobs.filter((job) => failedish(job.status)).length;
  const body = PUSH_ALERT_TEXTS.partsSummary(jobs.length - failed, failed);
  if (group.column === 'story_id') {
    const part = STORY_PART_NAMES[group.tool] ?? group.tool;
    return { title: PUSH_ALERT_TEXTS.storyStep(part), body, url: ROUTES.aiProduction.story(group.id), tag: `kinora-story-${group.id}-${group.tool}` };
  }
  const title = group.tool === BATCH_CONCAT_TOOL ? PUSH_ALERT_TEXTS.batchVideo : PUSH_ALERT_TEXTS.batchClips;
  return { title, body, url: ROUTES.aiVideo.album(group.id), tag: `kinora-batch-${group.id}-${group.tool}` };
}

/** POST push/test: opens the account page, where the switch is. */
export function testAlert(): PushAlertPayload {
  return { title: PUSH_ALERT_TEXTS.testTitle, body: PUSH_ALERT_TEXTS.testBody, url: ROUTES.account, tag: 'kinora-test' };
}
