import type { AnyStateMachine } from 'xstate';
import { appConfigMachine } from '@/machines/app-config/app-config.machine';
import { assetPickerMachine } from '@/machines/assets/asset-picker.machine';
import { assetMachine } from '@/machines/assets/asset.machine';
import { assetsMachine } from '@/machines/assets/assets.machine';
import { bannerMachine } from '@/machines/banner/banner.machine';
import { albumsMachine } from '@/machines/batch/albums.machine';
import { batchMachine } from '@/machines/batch/batch.machine';
import { contactMachine } from '@/machines/contact/contact.machine';
import { contentsMachine } from '@/machines/content/contents.machine';
import { promoVideosMachine } from '@/machines/content/promo-videos.machine';
import { shareMachine } from '@/machines/content/share.machine';
import { sharedItemMachine } from '@/machines/content/shared-item.machine';
import { creditsPageMachine } from '@/machines/credits-page/credits-page.machine';
import { finetunesMachine } from '@/machines/finetunes/finetunes.machine';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import { helpTopicsMachine } from '@/machines/help-topics/help-topics.machine';
import { historyLiveMachine } from '@/machines/job-history/history-live.machine';
import { jobHistoryMachine } from '@/machines/job-history/job-history.machine';
import { jobsMachine } from '@/machines/jobs/jobs.machine';
import { libraryMachine } from '@/machines/library/library.machine';
import { libraryFoldersMachine } from '@/machines/library/library-folders.machine';
import { mediaSourceMachine } from '@/machines/media-source/media-source.machine';
import { organisationMachine } from '@/machines/organisation/organisation.machine';
import { organisationsMachine } from '@/machines/organisation/organisations.machine';
import { paidRequestMachine } from '@/machines/paid-request/paid-request.machine';
import { promptHelperMachine } from '@/machines/prompt-helper/prompt-helper.machine';
import { pushAlertsMachine } from '@/machines/push-alerts/push-alerts.machine';
import { problemReportMachine } from '@/machines/inspector/problem-report.machine';
import { queueControlMachine } from '@/machines/queue-control/queue-control.machine';
import { projectHoldMachine } from '@/machines/project-hold/project-hold.machine';
import { resultCompareMachine } from '@/machines/result-compare/result-compare.machine';
import { resultFileMachine } from '@/machines/result-file/result-file.machine';
import { accountMachine } from '@/machines/session/account.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { creditsMachine } from '@/machines/session/credits.machine';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import { postLoadMachine } from '@/machines/session/post-load.machine';
import { sessionMachine } from '@/machines/session/session.machine';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import { storiesMachine } from '@/machines/story/stories.machine';
import { storyAutosaveMachine } from '@/machines/story/story-autosave.machine';
import { storyExportMachine } from '@/machines/story/story-export.machine';
import { storyPollerMachine } from '@/machines/story/story-poller.machine';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';
import { toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';
import { uploadMachine } from '@/machines/upload/upload.machine';

/**
 * Every machine of src/machines with a label, for the QA inspector (issue 8). Keyed by
 * `machine.id`, which is what inspection records carry. Only the inspector imports this module:
 * it pulls in every machine, so it must stay out of the initial bundle. The inspector's own machine
 * is not listed: it imports this catalog, and it is not inspected (it would record itself).
 */
export interface CatalogEntry {
  id: string;
  label: string;
  machine: AnyStateMachine;
}

const entry = (machine: AnyStateMachine, label: string): CatalogEntry => ({ id: machine.id, label, machine });

export const MACHINE_CATALOG: readonly CatalogEntry[] = [
  entry(sessionMachine, 'Session'),
  entry(creditsMachine, 'Credits (session child)'),
  entry(emailVerificationMachine, 'Email verification'),
  entry(tokenRefreshMachine, 'Token refresh (session child)'),
  entry(authFormsMachine, 'Sign-in forms (session child)'),
  entry(accountMachine, 'Account (session child)'),
  entry(postLoadMachine, 'After sign-in steps (session child)'),
  entry(appConfigMachine, 'App configuration'),
  entry(bannerMachine, 'Top banner'),
  entry(jobsMachine, 'Jobs registry'),
  entry(generationJobMachine, 'Generation job'),
  entry(toolHistoryMachine, 'Tool history'),
  entry(jobHistoryMachine, 'Job history (History page)'),
  entry(historyLiveMachine, 'History live rows (Job history child: polls waiting and running jobs)'),
  entry(queueControlMachine, 'Queue control (a waiting job: hold, resume, run next, edit)'),
  entry(libraryMachine, 'Library'),
  entry(libraryFoldersMachine, 'Library folders (Library child)'),
  entry(promptHelperMachine, 'Prompt helper'),
  entry(uploadMachine, 'Upload'),
  entry(mediaSourceMachine, 'Media source'),
  entry(assetsMachine, 'Assets list'),
  entry(assetMachine, 'Asset'),
  entry(assetPickerMachine, 'Asset picker'),
  entry(shareMachine, 'Share'),
  entry(resultFileMachine, 'Result file'),
  entry(resultCompareMachine, 'Compare two results'),
  entry(sharedItemMachine, 'Shared item'),
  entry(contentsMachine, 'Contents (latest, profile)'),
  entry(promoVideosMachine, 'Promo videos'),
  entry(storiesMachine, 'AI stories list'),
  entry(storyWizardMachine, 'AI story wizard'),
  entry(albumsMachine, 'Albums'),
  entry(batchMachine, 'Album (batch)'),
  entry(finetunesMachine, 'FineTunes'),
  entry(creditsPageMachine, 'Credits page'),
  entry(organisationsMachine, 'Organisations'),
  entry(organisationMachine, 'Organisation'),
  entry(contactMachine, 'Contact form'),
  entry(pushAlertsMachine, 'Done alerts (account page)'),
  entry(helpTopicsMachine, 'Help topics'),
  entry(paidRequestMachine, 'Paid request (child of a generation job, the story wizard and an album)'),
  entry(storyPollerMachine, 'AI story poller (story wizard child)'),
  entry(projectHoldMachine, 'Project hold (one quote for a whole film or album: quote, hold, release; a child of an album)'),
  entry(storyAutosaveMachine, 'AI story autosave (story wizard child)'),
  entry(storyExportMachine, 'AI story export zip (story wizard child)'),
  entry(problemReportMachine, 'Problem report'),
];

export const catalogEntry = (machineId: string): CatalogEntry | undefined =>
  MACHINE_CATALOG.find((candidate) => candidate.id === machineId);
