import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import "@booking/calendar";
import type {} from "@booking/calendar/react";
import type { BookingCalendarEventMap } from "@booking/calendar";

/**
 * A React 19 app that books through `<booking-calendar>`: the API origin and the event type's link
 * token come from the page's query (`?api=…&token=…`), the theme is app state passed down as a prop, and the app shows
 * the booking the element reports in its own markup.
 */
const query = new URLSearchParams(location.search);

function App() {
  const [theme, setTheme] = useState<"light" | "dark">("light");
  const [booked, setBooked] = useState<BookingCalendarEventMap["booking-reservation-confirmed"]["detail"] | null>(null);
  return (
    <main>
      <h1>Book a React consultation</h1>
      <button type="button" aria-pressed={theme === "dark"} onClick={() => setTheme(theme === "dark" ? "light" : "dark")}>
        Dark mode
      </button>
      <booking-calendar
        token={query.get("token") ?? ""}
        api-base={query.get("api") ?? ""}
        theme={theme}
        email="react@example.com"
        firstname="Rea"
        onbooking-reservation-confirmed={(event) => setBooked(event.detail)}
      />
      <p role="status">{booked ? `React app saw booking ${booked.uuid} starting ${booked.start}` : "Nothing booked yet"}</p>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
