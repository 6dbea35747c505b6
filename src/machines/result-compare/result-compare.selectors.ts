import type { SnapshotFrom } from 'xstate';
import type { CompareMode, resultCompareMachine } from '@/machines/result-compare/result-compare.machine';

type ResultCompareSnapshot = SnapshotFrom<typeof resultCompareMachine>;

/** The marked pictures' ids, in the order they were marked. */
export const selectCompareSelected = (snapshot: ResultCompareSnapshot): readonly string[] => snapshot.context.selected;
export const selectCompareOpen = (snapshot: ResultCompareSnapshot): boolean => snapshot.matches('comparing');
export const selectCompareSplit = (snapshot: ResultCompareSnapshot): number => snapshot.context.split;
export const selectCompareMode = (snapshot: ResultCompareSnapshot): CompareMode => snapshot.context.mode;
