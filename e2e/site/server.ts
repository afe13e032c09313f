import { join, normalize, sep } from "node:path";
import { escapeHtml } from "../../packages/server/src/lib/html.ts";

/**
 * The customer's web site in the end-to-end tests: another origin (another loopback port) than the
 * booking API, as a site that embeds the calendar is. It serves
 * - `/?attrs=<json>[&dark=1]`: `index.html`, a plain HTML page embedding the element with one script
 *   tag from the API origin and those attributes;
 * - `/popup?token=<token>`: `popup.html`, a page whose buttons and link open the calendar in a popup,
 *   with the script tag's floating button;
 * - `/pasted?snippet=<html>`: a plain page with that HTML pasted into its body as it is, as a site owner
 *   pastes a snippet the console copied;
 * - `/react/…` and `/vue/…`: the example apps as Vite built them (`npm run build:apps`);
 * - `POST /hooks/<name>`: the organizer's webhook receiver, which keeps what arrives (body and
 *   headers, as received) for `GET /hooks/<name>` to list.
 */
const api = process.env.E2E_API_ORIGIN!;
const here = import.meta.dirname;
const apps: Record<string, string> = { react: join(here, "../apps/react/dist"), vue: join(here, "../apps/vue/dist") };
const template = await Bun.file(join(here, "index.html")).text();
const popupTemplate = await Bun.file(join(here, "popup.html")).text();

const hooks = new Map<string, Array<{ headers: Record<string, string>; body: string }>>();

async function hook(request: Request, name: string): Promise<Response> {
  if (request.method === "POST") {
    hooks.set(name, [...(hooks.get(name) ?? []), { headers: Object.fromEntries(request.headers), body: await request.text() }]);
    return new Response(null, { status: 204 });
  }
  return Response.json(hooks.get(name) ?? []);
}

async function page(url: URL): Promise<Response> {
  const attrs = JSON.parse(url.searchParams.get("attrs") ?? "{}") as Record<string, string>;
  const html = template
    .replace("{{API}}", api)
    .replace(
      "{{ATTRS}}",
      Object.entries(attrs)
        .map(([k, v]) => `${escapeHtml(k)}="${escapeHtml(v)}"`)
        .join(" "),
    )
    .replace("<body>", url.searchParams.has("dark") ? '<body class="dark">' : "<body>");
  return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
}

async function appFile(app: string, rest: string): Promise<Response> {
  const root = apps[app]!;
  const path = normalize(join(root, rest === "" || rest === "/" ? "index.html" : rest));
  if (!path.startsWith(root + sep)) return new Response("not found", { status: 404 });
  const file = Bun.file(path);
  return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
}

const server = Bun.serve({
  port: Number(process.env.E2E_SITE_PORT),
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname === "/") return page(url);
    if (url.pathname === "/popup") {
      const html = popupTemplate.replaceAll("{{API}}", api).replaceAll("{{TOKEN}}", escapeHtml(url.searchParams.get("token") ?? ""));
      return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
    }
    if (url.pathname === "/pasted") {
      const html = `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Riverside Studio</title></head>\n<body><main><h1>Riverside Studio</h1>\n${url.searchParams.get("snippet") ?? ""}\n</main></body>\n</html>\n`;
      return new Response(html, { headers: { "content-type": "text/html;charset=utf-8" } });
    }
    const [, app, ...rest] = url.pathname.split("/");
    if (app === "hooks" && rest.length === 1) return hook(request, rest[0]!);
    if (app && app in apps) return appFile(app, rest.join("/"));
    return new Response("not found", { status: 404 });
  },
});
console.log(`customer site on ${server.url}`);
