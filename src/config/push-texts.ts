/**
 * Done alerts (issue 21 item 3): Web Push notifications for a job or a story step that finished
 * while Kinora's tab was closed. The server words the alerts (server/src/push/alert-payload.ts);
 * the account page words the switch. SPEC gives none of these texts.
 */
export const PUSH_TEXTS = {
  title: 'Done alerts',
  intro:
    'Get a notification on this device when a job or an AI Story step finishes while Kinora is closed. An open Kinora tab keeps telling you itself.',
  switchLabel: 'Done alerts on this device',
  checking: 'Checking this browser…',
  on: 'On: this device gets an alert when your work is done.',
  off: 'Off: nothing is sent to this device.',
  turningOn: 'Turning Done alerts on…',
  turningOff: 'Turning Done alerts off…',
  test: 'Send a test alert',
  testing: 'Sending…',
  testSent: (count: number): string =>
    count === 1 ? 'A test alert was sent to your device.' : `A test alert was sent to your ${count} devices.`,
  testFailed: 'The test alert could not be delivered. Check that this browser still allows notifications, then try again.',
  unsupported:
    'This browser cannot receive alerts while Kinora is closed (it has no service workers or Push API). The open tab still tells you when your work is done.',
  denied:
    'Notifications are blocked for Kinora in this browser. Allow them in the site settings (the icon left of the address), then turn Done alerts on again.',
  dismissed: 'Notifications were not allowed, so Done alerts stay off. Turn the switch on again to be asked once more.',
  pushServiceUnreachable:
    "This browser's push service could not be reached, so Done alerts could not be turned on. Check your connection (some networks and privacy settings block it), then try again.",
  failedTitle: 'Done alerts',
  retry: 'Try again',
  otherDevices: 'Turning alerts off here stops them on your other devices too.',
} as const;

/** The words of the alerts the server sends (their title and body). */
export const PUSH_ALERT_TEXTS = {
  appName: 'Kinora',
  jobSucceeded: (tool: string): string => `${tool} finished`,
  jobFailed: (tool: string): string => `${tool} failed`,
  jobNsfw: (tool: string): string => `${tool} was flagged as unsafe`,
  resultReady: 'Your result is ready. Open Kinora to see it.',
  refunded: 'Your credits were refunded.',
  storyStep: (part: string): string => `AI Story: ${part} done`,
  batchClips: 'Batch album: clips done',
  batchVideo: 'Batch album: video done',
  partsSummary: (done: number, failed: number): string =>
    failed === 0 ? `${done} ready. Open Kinora to carry on.` : `${done} ready, ${failed} failed (refunded). Open Kinora to carry on.`,
  testTitle: 'Kinora test alert',
  testBody: 'Done alerts work on this device.',
} as const;

/** What each AI Story part is called in its alert, by the media tool of its jobs (src/config/story.ts STORY_TOOLS). */
export const STORY_PART_NAMES: Readonly<Record<string, string>> = {
  'story-element': 'element pictures',
  'scene-image': 'scene pictures',
  'story-video': 'scene videos',
  'story-audio': 'sound',
  'story-concat': 'film',
};
