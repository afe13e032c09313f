import { escapeHtml } from "../../server/src/lib/html.ts";

/**
 * A customer's web site for the component tests: another origin than the API (another port), both
 * on loopback as browsers require of pages that call loopback servers. `GET /book?attrs=<json>`
 * answers a page that embeds the calendar with one script tag and those attributes;
 * `&standin=1` loads the server's Stripe.js stand-in first.
 */
const api = process.env.BC_API_ORIGIN!;

/**
 * `GET /popup?tokens=<json>[&floating=<token>][&scheme=<color-scheme>]`: a page with a button per
 * token that opens the calendar in a popup, a link doing the same for the first, optionally the
 * script tag's floating button, and optionally the page's own `color-scheme`.
 */
function popupPage(url: URL): Response {
  const tokens = JSON.parse(url.searchParams.get("tokens") ?? "[]") as string[];
  const floating = url.searchParams.get("floating");
  const scheme = url.searchParams.get("scheme");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer site with popups</title>
${scheme ? `<style>:root { color-scheme: ${escapeHtml(scheme)}; }</style>` : ""}
<script src="${api}/embed/booking-calendar.js" defer${floating ? ` data-booking-floating="${escapeHtml(floating)}" data-booking-text="Book a call"` : ""}></script></head>
<body><main><h1>Our services</h1>
${tokens.map((t, i) => `<p><button type="button" data-booking-calendar="${escapeHtml(t)}">Book service ${i + 1}</button></p>`).join("\n")}
${tokens[0] ? `<p><a href="/book?attrs=%7B%7D" data-booking-calendar="${escapeHtml(tokens[0])}" data-booking-label="Booking">Book by link</a></p>` : ""}
<p><input aria-label="Notes" id="notes"></p>
</main></body></html>`;
  return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
}

const server = Bun.serve({
  port: Number(process.env.BC_SITE_PORT),
  hostname: "127.0.0.1",
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname === "/popup") return popupPage(url);
    if (url.pathname !== "/book") return new Response("not found", { status: 404 });
    const attrs = JSON.parse(url.searchParams.get("attrs") ?? "{}") as Record<string, string>;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer site</title>
${url.searchParams.get("standin") ? `<script src="${api}/embed/stripe-standin.js"></script>` : ""}
<script src="${api}/embed/booking-calendar.js"></script></head>
<body><main><h1>Book with us</h1><booking-calendar${Object.entries(attrs)
      .map(([k, v]) => ` ${escapeHtml(k)}="${escapeHtml(v)}"`)
      .join("")}></booking-calendar></main></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
  },
});
console.log(`customer site on ${server.url}`);
