/** The form part: defines `<bc-booking-form>`, the visitor's details, fetched when the visitor picks a day (before they pick a time). */
import { BookingForm } from "../views/booking-form.ts";

if (!customElements.get("bc-booking-form")) customElements.define("bc-booking-form", BookingForm);
