/**
 * The English texts of the repeat choice (views/series-choice.ts): only event types that allow a
 * series show it, so they travel with the form part and join `DEFAULT_TEXTS` when it loads. The
 * built-in translations carry them like every other text.
 */
export const SERIES_TEXTS = {
  repeatBooking: "Repeat this booking",
  repeatEvery: "Repeat",
  "repeat.weekly": "Every week",
  "repeat.biweekly": "Every two weeks",
  repeatCount: "Number of dates",
  seriesDates: "Dates of the series",
  occurrenceTaken: "taken",
  seriesAllFree: "Every date is free.",
  seriesSomeTaken: "Some dates are taken: choose another time or fewer dates.",
  "refused.series_unavailable": "Some dates of the series were just taken. The list shows which; choose another time or fewer dates.",
} as const;
