/**
 * Imported by main.tsx in a task of its own, so that xstate's code is evaluated there and not in
 * the same task as the session's machines (issue 19: total blocking time). One name only: a
 * dynamic import of the package itself would keep all of its exports in the build.
 */
export { createActor } from 'xstate';
