/**
 * Sends the browser to a page of the card provider (checkout, billing portal, receipt), in the
 * same tab: those pages link back to /credits. Its own module so tests can replace it; jsdom
 * cannot navigate away. (The app's `leaveApp` lives in src/app, which screens may not import.)
 */
export function leavePage(url: string): void {
  window.location.assign(url);
}
