/**
 * Sends the browser to another site (the allowlisted redirect of SPEC §4). Its own module so tests
 * can replace it; jsdom cannot navigate away.
 */
export function leaveApp(url: string): void {
  window.location.assign(url);
}
