/** The zones part of the script-tag file: the zone picker's list and search, handed back once the visitor reaches for the picker. */
import { cityName, ZoneIndex } from "../zones/zone-index.ts";

const shared = window.BookingCalendarShared;
if (shared && !shared.zones) shared.zones = { ZoneIndex, cityName };
