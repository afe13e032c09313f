import { isSlug } from "@booking/wire";
import { escapeHtml } from "../../lib/html.ts";
import { FAVICON_LINK } from "../embed/page.ts";
import { isUuid } from "../../lib/ids.ts";
import type { ManageAction } from "../../lib/links.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { Store } from "../../store/store.ts";
import { translationFor } from "../../domain/event-type.ts";

/** A rendered page: the event type's, or the page saying there is none (the route answers that one 404). */
export interface RenderedPage {
  /** Whether the slug names an event type; false for the "not found" page. */
  found: boolean;
  html: string;
  /** Whether search engines should leave it out (a visitor's personal manage link). */
  private: boolean;
}

/**
 * The shareable booking page `/book/{slug}`: a small server-rendered document that loads the
 * `<booking-calendar>` element with the event type's publishable link token. A disabled event type
 * still gets its page (the calendar tells the visitor it takes no bookings); an unknown slug gets a
 * friendly 404 page, since a person, not a program, follows these links.
 */
export class BookingPageService {
  /** `scripts`: the head tags that load the element (and the page's icon). */
  constructor(
    private readonly store: Store,
    private readonly scripts: () => string,
  ) {}

  /**
   * The page of `slug` on `origin`; `reservation` (the query parameter) opens the reschedule view when
   * it is a uuid, with `action` (the question to cancel, or the new times) open; `acceptLanguage`
   * (the request's header) chooses the language of the page's heading.
   */
  async render(
    slug: string,
    reservation: string | null | undefined,
    origin: string,
    acceptLanguage: string | null = null,
    action: ManageAction | null = null,
  ): Promise<RenderedPage> {
    const wanted = slug.toLowerCase();
    const eventType = isSlug(wanted) ? await this.store.eventTypes.bySlug(wanted) : null;
    if (!eventType) return { found: false, html: missingPage(), private: false };
    // Anything but a well-formed uuid is ignored: the calendar then simply offers a new booking.
    const reservationUuid = reservation && isUuid(reservation) ? reservation.toLowerCase() : null;
    return { found: true, html: bookingPage(eventType, origin, reservationUuid, this.scripts(), acceptLanguage, action), private: reservationUuid !== null };
  }
}

/** The language tags of an `Accept-Language` header, most wanted first (well-formed ones, at most ten). */
function acceptedLanguages(header: string | null): string[] {
  return (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(/^q=([\d.]+)$/.exec(params.join("").trim())?.[1] ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((t) => t.q > 0 && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(t.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .slice(0, 10)
    .map((t) => t.tag);
}

/**
 * The page's language and the organizer's texts in it: the event type's `locale.preset` when it has
 * one; else the visitor's first language the organizer wrote texts in, else their first language.
 */
function pageLanguage(s: EventTypeRecord["settings"], acceptLanguage: string | null): { lang: string; title: string; description: string } {
  const wanted = s.locale.preset ? [s.locale.preset] : acceptedLanguages(acceptLanguage);
  const tag = wanted.find((t) => translationFor(s, t)) ?? wanted[0] ?? "en";
  const own = translationFor(s, tag);
  return { lang: tag, title: own?.title ?? s.title, description: own?.description ?? s.description };
}

function bookingPage(
  eventType: EventTypeRecord,
  origin: string,
  reservationUuid: string | null,
  scripts: string,
  acceptLanguage: string | null,
  action: ManageAction | null,
): string {
  const s = eventType.settings;
  const attributes = [`token="${escapeHtml(eventType.linkToken)}"`, `api-base="${escapeHtml(origin)}"`];
  if (reservationUuid) attributes.push(`reservation-uuid="${escapeHtml(reservationUuid)}"`);
  if (reservationUuid && action) attributes.push(`manage-action="${action}"`);
  const { lang, title, description } = pageLanguage(s, acceptLanguage);
  return document({
    lang,
    title,
    description,
    mode: s.theme.mode,
    head: scripts,
    body: [
      `<h1>${escapeHtml(title)}</h1>`,
      description ? `<p class="description">${escapeHtml(description)}</p>` : "",
      `<booking-calendar ${attributes.join(" ")}></booking-calendar>`,
      `<noscript><p>This booking page needs JavaScript to show the free times.</p></noscript>`,
    ].join("\n"),
  });
}

function missingPage(): string {
  return document({
    lang: "en",
    title: "Booking page not found",
    description: "",
    mode: "auto",
    head: FAVICON_LINK,
    body: [
      "<h1>Booking page not found</h1>",
      "<p>There is no booking page at this address. The link may be mistyped, or the organizer may have renamed or removed the page.</p>",
      "<p>Please ask the person who sent you the link for a current one.</p>",
    ].join("\n"),
  });
}

/** The page's colours per theme mode: the same light or dark as the calendar on it shows. */
const PAGE_DARK = "body { color: #e5e7eb; background: #111827; } .description { color: #9ca3af; }";
const pageScheme = (mode: string): { meta: string; dark: string } =>
  mode === "dark"
    ? { meta: "dark", dark: PAGE_DARK }
    : mode === "light"
      ? { meta: "light", dark: "" }
      : { meta: "light dark", dark: `@media (prefers-color-scheme: dark) { ${PAGE_DARK} }` };

/**
 * The shell every page shares: language, title, viewport, and one `<main>`, light or dark as the
 * event type's `theme.mode` says (`auto`: as the visitor's system), like the calendar on it.
 */
function document(page: { lang: string; title: string; description: string; mode: string; head: string; body: string }): string {
  const scheme = pageScheme(page.mode);
  return `<!doctype html>
<html lang="${escapeHtml(page.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="${scheme.meta}">
<title>${escapeHtml(page.title)}</title>
${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">\n` : ""}<style>
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; color: #1f2937; background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 0.5rem; }
.description { margin: 0 0 1.5rem; color: #4b5563; }
/* The calendar is the page's one card, centred under the title however wide the window. */
booking-calendar { max-width: 56rem; margin: 0 auto; }
/* Once the calendar runs it shows the title and description itself: the page keeps its h1 for
   screen readers and outlines only, and drops the repeated description. */
body:has(booking-calendar:defined) h1 { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
body:has(booking-calendar:defined) .description { display: none; }
${scheme.dark}
</style>
${page.head}
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>
`;
}
