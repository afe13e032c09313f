import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { NO_FRAMING } from "../../http/page-policy.ts";
import { openApiDocument } from "./openapi.ts";
import { docsPage } from "./page.ts";

/** `GET /openapi.json` and `GET /docs`, both built once per app; the docs page runs no script and is never framed. */
export const docsRoutes = (ctx: AppContext) => {
  const document = JSON.stringify(openApiDocument(ctx.config.aliasPrefix));
  const page = docsPage(ctx.config.aliasPrefix, { requestsPerMinute: ctx.config.rateLimit.limit, maxBodyBytes: ctx.config.maxBodyBytes });
  return new Elysia()
    .get("/openapi.json", () => new Response(document, { headers: { "content-type": "application/json;charset=utf-8" } }))
    .get("/docs", () => new Response(page, { headers: { "content-type": "text/html;charset=utf-8", "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; ${NO_FRAMING.directive}`, ...NO_FRAMING.headers } }));
};
