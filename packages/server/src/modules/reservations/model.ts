import { Type } from "@sinclair/typebox";
import { CancelInput, ConfirmInput, Envelope, PaymentInput, PaymentResult, RescheduleInput, ReservationInput, ReservationResult } from "@booking/wire";

export { CancelInput, ConfirmInput, PaymentInput, RescheduleInput, ReservationInput };

/** Query of `DELETE /reservations/{uuid}`: the organizer's override of the cancel notice rule (the `Booking-Override-Token` header keeps it out of logs). */
export const CancelQuery = Type.Object({ overrideToken: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: true });

/** Response of create, prepare, reschedule and confirm. */
export const ReservationResponse = Envelope(ReservationResult);

/** Response of refresh: an empty array on success. */
export const RefreshResponse = Envelope(Type.Array(Type.Never()));

/** Response of cancel: success and message only. */
export const CancelResponse = Envelope(Type.Never());

/** Response of the payment route. */
export const PaymentResponse = Envelope(PaymentResult);
