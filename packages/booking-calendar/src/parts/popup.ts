/** The popup part of the script-tag file: defines the popup and the floating button, and hands their functions back. */
import { closePopup, equipFloatingButton, openPopup } from "../popup/popup.ts";

const shared = window.BookingCalendarShared;
if (shared && !shared.popup) shared.popup = { openPopup, closePopup, equipFloatingButton };
