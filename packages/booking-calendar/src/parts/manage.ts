/**
 * The manage part: the screens of an existing booking (views/manage.ts) with their English texts,
 * handed to the element under `window.BookingCalendarShared.manage` when a manage link opens it.
 */
import { DEFAULT_TEXTS } from "../i18n/texts.ts";
import { MANAGE_TEXTS } from "../i18n/manage-texts.ts";
import * as views from "../views/manage.ts";
import type { SharedModules } from "./load.ts";

Object.assign(DEFAULT_TEXTS, MANAGE_TEXTS);
// The npm module has no shared object of its own: the part makes the slot it fills.
(window.BookingCalendarShared ??= {} as SharedModules).manage ??= views;
