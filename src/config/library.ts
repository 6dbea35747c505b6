/** The Library (issue 21 item 7): its page size and the limits of its folders. */

/** Results per page of the Library's grid (a multiple of 2, 3 and 4: full rows at every width). */
export const LIBRARY_PAGE_SIZE = 24;
/** Longest folder name. */
export const LIBRARY_FOLDER_NAME_MAX = 60;
/** Most folders one person keeps. */
export const LIBRARY_FOLDERS_MAX = 100;
/**
 * How many pages `/library?item={id}` reads at most while looking for that result (newest first):
 * 20 pages of 24 is the person's newest 480 results.
 */
export const LIBRARY_SEEK_PAGES_MAX = 20;
