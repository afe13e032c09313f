/** The form part: defines `<bc-booking-form>`, the visitor's details, and its repeat choice `<bc-series-choice>` with their texts, fetched when the visitor picks a day (before they pick a time). */
import { DEFAULT_TEXTS } from "../i18n/texts.ts";
import { SERIES_TEXTS } from "../i18n/series-texts.ts";
import { BookingForm } from "../views/booking-form.ts";
import { SeriesChoice } from "../views/series-choice.ts";

Object.assign(DEFAULT_TEXTS, SERIES_TEXTS);
if (!customElements.get("bc-series-choice")) customElements.define("bc-series-choice", SeriesChoice);
if (!customElements.get("bc-booking-form")) customElements.define("bc-booking-form", BookingForm);
