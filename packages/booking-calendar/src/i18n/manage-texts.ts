/**
 * The English texts of the manage screens (views/manage.ts): only visitors with a manage link see
 * them, so they travel with that part and join `DEFAULT_TEXTS` when it loads. The built-in
 * translations carry them like every other text.
 */
export const MANAGE_TEXTS = {
  currentBooking: "Your booking",
  status: "Status: {status}",
  "status.held": "held",
  "status.confirmed": "confirmed",
  "status.expired": "expired",
  "status.cancelled": "cancelled",
  pickNewTime: "Choose a new time",
  moveTo: "Move your booking to {time}?",
  confirmMove: "Move booking",
  cancelBooking: "Cancel booking",
  cancelQuestion: "Cancel this booking? This cannot be undone.",
  confirmCancel: "Yes, cancel it",
  endSeries: "Cancel this and all following dates",
  cancelReason: "Reason for cancelling (optional)",
  keepBooking: "Keep it",
  alreadyCancelled: "This booking is already cancelled.",
  "refused.forbidden": "This change is no longer possible online. Please contact the organizer.",
  rescheduledTitle: "Your booking has moved",
  cancelledTitle: "Your booking is cancelled",
  cancelledText: "Nothing else is needed.",
  bookAnother: "Book another time",
  changeUntil: "You can reschedule or cancel online until {time}.",
  changeEnded: "Rescheduling and cancelling online closed on {time}.",
  moveUntil: "You can reschedule online until {time}.",
  moveEnded: "Rescheduling online closed on {time}.",
  cancelUntil: "You can cancel online until {time}.",
  cancelEnded: "Cancelling online closed on {time}.",
  askOrganizer: "For changes now, contact the organizer: {contact}",
  askOrganizerNoContact: "For changes now, please contact the organizer.",
} as const;
