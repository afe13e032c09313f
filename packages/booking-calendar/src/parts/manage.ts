/**
 * The manage part: the screens of an existing booking (views/manage.ts) with their English texts,
 * handed to the element when a manage link opens it: under `window.BookingCalendarShared.manage` in
 * the script-tag file, as this module's default export in the npm module.
 */
import { DEFAULT_TEXTS } from "../i18n/texts.ts";
import { MANAGE_TEXTS } from "../i18n/manage-texts.ts";
import * as views from "../views/manage.ts";

Object.assign(DEFAULT_TEXTS, MANAGE_TEXTS);
// The script-tag file reads them from its shared object; the npm module (which has none) from this module's export.
const shared = window.BookingCalendarShared;
if (shared) shared.manage ??= views;

export default views;
