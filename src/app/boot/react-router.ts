/**
 * Imported by main.tsx in a task of its own, so that React Router's code is evaluated there and
 * not in the same task as the app's routes (issue 19: total blocking time). One name only: a
 * dynamic import of the package itself would keep all of its exports in the build.
 */
export { createBrowserRouter } from 'react-router-dom';
