// Split point: only `lazy-notifications.tsx` imports this module, with a dynamic import, so the
// toasts' container (and its transitions) stays out of the initial bundle. Importing the package
// itself dynamically would not split it: `notifications.show` keeps the package in the initial graph.
export { Notifications } from '@mantine/notifications';
