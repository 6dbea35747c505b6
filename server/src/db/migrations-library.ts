import type { Migration } from './sql.ts';

/**
 * Migration 18: the Library's folders (issue 21 item 7). A folder is the person's own named set of
 * their finished results; an item may be in several folders at once (a picture can belong to
 * "Posters" and "Client A"), so membership is its own table rather than a column on media.
 * Deleting a folder deletes its memberships, never the media; deleting a media row (by its owner
 * or the guest's weekly clean-up) takes it out of every folder. Never edit it once it has shipped.
 */
export const LIBRARY_MIGRATION: Migration = {
  id: 18,
  name: 'library-folders',
  statements: [
    `CREATE TABLE library_folders (
      id text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub),
      name text NOT NULL CHECK (name <> ''),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    // One name per person, whatever its case ("Posters" and "posters" would be two rows to pick from).
    `CREATE UNIQUE INDEX library_folders_user_name_key ON library_folders (user_sub, lower(name))`,
    `CREATE TABLE library_folder_items (
      folder_id text NOT NULL REFERENCES library_folders (id) ON DELETE CASCADE,
      media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE,
      added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (folder_id, media_id)
    )`,
    // Which folders each listed item is in (the primary key serves a folder's own items).
    `CREATE INDEX library_folder_items_media_idx ON library_folder_items (media_id)`,
  ],
};
