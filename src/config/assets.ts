/** Assets (SPEC §3 Asset: "id plus other fields"; many tool calls take asset_id to attach a result). */
export const ASSET_NAME_MAX = 80;
export const ASSET_DESCRIPTION_MAX = 1000;
/** Most assets one person keeps. */
export const ASSETS_MAX = 500;
