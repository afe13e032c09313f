import { Elysia, type AnyElysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, text } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { NO_FRAMING } from "../../http/page-policy.ts";
import { openApiDocument } from "./openapi.ts";
import { docsPage } from "./page.ts";

/**
 * `GET /openapi.json` and `GET /docs`, both generated from the app's routes on first request and
 * kept; the docs page runs no script and is never framed.
 */
export const docsRoutes = (ctx: AppContext, app: () => AnyElysia) => {
  let built: { document: string; page: string } | null = null;
  const docs = () => {
    if (built) return built;
    const document = openApiDocument(app(), ctx.config.aliasPrefix);
    built = {
      document: JSON.stringify(document),
      page: docsPage(document, ctx.config.aliasPrefix, { requestsPerMinute: ctx.config.rateLimit.limit, maxBodyBytes: ctx.config.maxBodyBytes }),
    };
    return built;
  };
  return new Elysia()
    .get("/openapi.json", () => new Response(docs().document, { headers: { "content-type": "application/json;charset=utf-8" } }), {
      response: answers(Type.Object({}, { additionalProperties: true, description: "An OpenAPI 3.1 document." }), []),
      detail: pageDoc({
        operationId: "getOpenApiDocument",
        summary: "This document",
        description: "The OpenAPI 3.1 document of the API, generated from the routes' own declarations.",
      }),
    })
    .get(
      "/docs",
      () =>
        new Response(docs().page, {
          headers: {
            "content-type": "text/html;charset=utf-8",
            "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; ${NO_FRAMING.directive}`,
            ...NO_FRAMING.headers,
          },
        }),
      {
        response: answers(text("HTML page.", "text/html"), []),
        detail: pageDoc({
          operationId: "getApiReference",
          summary: "The API reference page",
          description: "The human-readable reference: one self-contained HTML page built from this document, with no script and never framed.",
        }),
      },
    );
};
