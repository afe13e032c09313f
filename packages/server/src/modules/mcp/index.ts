import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { ADMIN_HINT, hasAdminKey } from "../../http/tokens.ts";
import type { Services } from "../../services.ts";
import { publicOrigin } from "../../lib/links.ts";
import { createMcpServer } from "./server.ts";

/** Path of the assistant server's Streamable HTTP endpoint. */
export const MCP_PATH = "/mcp";

/**
 * The assistant server (MCP) over Streamable HTTP at `/mcp`, for remote assistants, behind
 * `Authorization: Bearer $BOOKING_ADMIN_KEY` like the admin API (and, like it, not mounted without
 * a configured key). Stateless: every POST gets a fresh server and transport and a plain JSON
 * answer, so any instance can answer any request. GET (a server-to-client event stream) and DELETE
 * (ending a session) have nothing to serve without sessions: 405, as the transport spec allows.
 */
export const mcpRoutes = (ctx: AppContext, services: Services) => {
  const adminKey = ctx.config.adminKey;
  if (!adminKey) return new Elysia();
  const notServed = () => {
    throw new ApiError(
      "method_not_allowed",
      "This assistant server is stateless: send JSON-RPC messages with POST; it offers no event stream and no sessions to end.",
      {
        headers: { allow: "POST" },
      },
    );
  };

  return new Elysia()
    .onTransform(({ request }) => {
      if (hasAdminKey(request, adminKey)) return;
      throw new ApiError("unauthenticated", "Send the admin key as Authorization: Bearer <BOOKING_ADMIN_KEY>.", {
        hint: ADMIN_HINT,
        headers: { "www-authenticate": 'Bearer realm="booking-calendar"' },
      });
    })
    .post(
      MCP_PATH,
      async ({ request, body }) => {
        const server = createMcpServer(ctx, services, publicOrigin(ctx.config, request.url));
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          // The contract has read the body already (with its size limit); the transport takes it parsed.
          return await transport.handleRequest(request, { parsedBody: body });
        } finally {
          await server.close();
        }
      },
      {
        response: answers(Type.Unknown({ description: "A JSON-RPC answer (or a batch of them)." }), [401, 404, 413, 422], {
          202: Type.Unknown({ description: "A notification or answer was taken: no body." }),
        }),
        detail: pageDoc({
          operationId: "mcpMessage",
          summary: "Talk to the assistant server",
          description:
            "JSON-RPC messages of the Model Context Protocol over Streamable HTTP, stateless: every POST is answered in JSON. Behind `Authorization: Bearer $BOOKING_ADMIN_KEY`.",
          auth: true,
        }),
      },
    )
    .get(MCP_PATH, notServed, {
      response: answers(Type.Null({ description: "Never answered: the method is refused." }), [401, 405]),
      detail: pageDoc({
        operationId: "mcpEventStream",
        summary: "The assistant server's event stream (not offered)",
        description: "405: the server is stateless and offers no event stream.",
      }),
    })
    .delete(MCP_PATH, notServed, {
      response: answers(Type.Null({ description: "Never answered: the method is refused." }), [401, 405]),
      detail: pageDoc({
        operationId: "mcpEndSession",
        summary: "End an assistant session (not offered)",
        description: "405: the server is stateless and has no sessions to end.",
      }),
    });
};
