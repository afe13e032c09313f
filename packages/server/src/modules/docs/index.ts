import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { openApiDocument } from "./openapi.ts";
import { docsPage } from "./page.ts";

/** `GET /openapi.json` and `GET /docs`, both built once per app. */
export const docsRoutes = (ctx: AppContext) => {
  const document = JSON.stringify(openApiDocument(ctx.config.aliasPrefix));
  const page = docsPage(ctx.config.aliasPrefix, { requestsPerMinute: ctx.config.rateLimit.limit, maxBodyBytes: ctx.config.maxBodyBytes });
  return new Elysia()
    .get("/openapi.json", () => new Response(document, { headers: { "content-type": "application/json;charset=utf-8" } }))
    .get("/docs", () => new Response(page, { headers: { "content-type": "text/html;charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" } }));
};
