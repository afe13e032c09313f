import { escapeHtml } from "../../server/src/lib/html.ts";

/**
 * A customer's web site for the component tests: another origin than the API (another port), both
 * on loopback as browsers require of pages that call loopback servers. `GET /book?attrs=<json>`
 * answers a page that embeds the calendar with one script tag and those attributes;
 * `&standin=1` loads the server's Stripe.js stand-in first.
 */
const api = process.env.BC_API_ORIGIN!;

const server = Bun.serve({
  port: Number(process.env.BC_SITE_PORT),
  hostname: "127.0.0.1",
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname !== "/book") return new Response("not found", { status: 404 });
    const attrs = JSON.parse(url.searchParams.get("attrs") ?? "{}") as Record<string, string>;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer site</title>
${url.searchParams.get("standin") ? `<script src="${api}/embed/stripe-standin.js"></script>` : ""}
<script src="${api}/embed/booking-calendar.js"></script></head>
<body><main><h1>Book with us</h1><booking-calendar${Object.entries(attrs).map(([k, v]) => ` ${escapeHtml(k)}="${escapeHtml(v)}"`).join("")}></booking-calendar></main></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
  },
});
console.log(`customer site on ${server.url}`);
