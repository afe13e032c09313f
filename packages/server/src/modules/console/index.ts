import { Elysia } from "elysia";
import { text } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import { answers, Done, envelope } from "../../http/answers.ts";
import { adminDoc } from "../../http/route-doc.ts";
import { SessionView } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { done, ok } from "../../http/envelope.ts";
import { clientAddress } from "../../http/caller.ts";
import { assertSameOrigin, clearedSessionCookie, sessionCookie, type SessionContext } from "../../http/console-session.ts";
import { BuildVersion, SessionId } from "../../http/path-params.ts";
import { Type } from "@sinclair/typebox";
import type { AdminGuard } from "../admin/guard.ts";
import { ConsoleSignInBody } from "./model.ts";
import { consoleSessionOf } from "./session.ts";
import { sessionView, type ConsoleAccess } from "./service.ts";
import { consolePage, consoleOffPage, consolePageHeaders, ConsoleBundle, type ConsoleMode } from "./page.ts";
import type { CalendarScriptFile } from "../embed/service.ts";

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * The organizer console: its page at `/console` and its script, and its session under
 * `/console/session` (POST signs in with the admin key or a one-time link, GET tells who is signed
 * in, DELETE signs out). Everything else the console does goes through the admin API with the
 * session's cookie. In production without BOOKING_ADMIN_KEY the page says how to turn it on.
 */
export const consoleRoutes = (ctx: AppContext, access: ConsoleAccess, calendar: CalendarScriptFile, bundle = new ConsoleBundle()) => {
  const mode: ConsoleMode = ctx.config.adminKey ? "key" : ctx.config.consoleSignInLinks ? "link" : "off";
  const page = ({ request }: { request: Request }) => {
    const headers = consolePageHeaders(ctx, request);
    if (mode === "off") return new Response(consoleOffPage(), { headers });
    const script = bundle.get();
    if (!script) return new Response(consoleOffPage("The console is not built yet: run `npm run build` (npm start does it)."), { status: 503, headers });
    return new Response(consolePage({ mode, scriptPath: bundle.pagePath(), calendarPath: calendar.pagePath() }), { headers });
  };
  const signedIn = async (context: SessionContext) => {
    const session = await consoleSessionOf(ctx, access, context);
    if (!session)
      throw new ApiError("unauthenticated", "Not signed in to the console, or the session has ended.", { hint: "Sign in at /console with the admin key." });
    return session;
  };
  const CONSOLE_PAGE = text("The console's HTML page.", "text/html");
  const CONSOLE_OFF = text("An HTML page saying the console is not built yet.", "text/html");
  return new Elysia()
    .get("/console", page, {
      response: answers(CONSOLE_PAGE, [], { 503: CONSOLE_OFF }),
      detail: pageDoc({
        operationId: "consolePage",
        summary: "The organizer console",
        description: "The console's single page: it signs in with the admin key or a one-time link and uses the admin API with its session cookie.",
      }),
    })
    .get("/console/", page, {
      response: answers(CONSOLE_PAGE, [], { 503: CONSOLE_OFF }),
      detail: pageDoc({
        operationId: "consolePageSlash",
        summary: "The organizer console (trailing slash)",
        description: "The same page as `/console`.",
      }),
    })
    .get(
      "/console/v/:version/console.js",
      ({ params, request, set }) => {
        const script = bundle.get();
        if (!script) throw new ApiError("not_found", "The console is not built yet: run `npm run build`.");
        set.headers.etag = script.etag;
        // The URL names the content: kept for a year; another version's URL gets this one's content, revalidated.
        set.headers["cache-control"] = params.version === script.version ? "public, max-age=31536000, immutable" : "no-cache";
        if (request.headers.get("if-none-match") === script.etag) {
          set.status = 304;
          return "";
        }
        return script.body.send(set, request.headers.get("accept-encoding"));
      },
      {
        params: Type.Object({ version: BuildVersion }),
        response: answers(text("JavaScript.", "text/javascript"), [404], { 304: text("Not modified.", "text/javascript") }),
        detail: pageDoc({
          operationId: "consoleScript",
          summary: "The console's script",
          description:
            "The console's script of this build, kept for a year under its version; another version's URL gets this one, revalidated. 404 until `npm run build` has run.",
        }),
      },
    )
    .post(
      "/console/session",
      async ({ body, request, server, set }) => {
        if (mode === "off") throw new ApiError("not_found", "The console is off: set BOOKING_ADMIN_KEY to turn it on.");
        // A sign-in from another site would sign the browser into someone else's session.
        assertSameOrigin(request, ctx.config);
        if (!body.link && !body.adminKey) throw new ApiError("validation_failed", "Send adminKey or link.", { errors: { adminKey: ["Enter the admin key."] } });
        const address = clientAddress(request, server as AddressSource | null, ctx.config.trustProxy);
        const outcome = await access.signIn(body, { address, userAgent: request.headers.get("user-agent") ?? "" });
        if ("retryAfterSeconds" in outcome) {
          throw new ApiError("rate_limited", "Too many sign-in attempts from this address; wait before trying again.", {
            headers: { "retry-after": String(outcome.retryAfterSeconds) },
          });
        }
        set.headers["set-cookie"] = sessionCookie(ctx.config, outcome.token, access.idleMs);
        return ok(sessionView(outcome.session));
      },
      {
        body: ConsoleSignInBody,
        response: answers(envelope(SessionView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "consoleSignIn",
          summary: "Sign in to the organizer console",
          description:
            "Exchanges the admin key (`adminKey`, role `admin`) or the secret of a one-time sign-in link (`link`, `bcsl_…`: development's printed link, role `admin`, or a host's emailed link, role `host`) for a session: the answer sets an HttpOnly, SameSite=Strict cookie (`booking_console`; in production `__Host-booking_console`, Secure) with which the admin API is used from the console's own origin. A wrong key or a used, expired or unknown link is 401 `unauthenticated`; a request from another origin 403 `forbidden`; after 10 failed sign-ins from one address in 10 minutes (counted in the database, shared by every instance, however many arrive at once), 429 with `Retry-After`; 503 `service_unavailable` when the attempt cannot be counted (it is not checked). 404 when the console is off (production without BOOKING_ADMIN_KEY).",
          access: "sign-in",
          tag: "console",
        }),
      },
    )
    .get("/console/session", async ({ request, set }) => ok(sessionView(await signedIn({ request, set }))), {
      response: answers(envelope(SessionView), [401]),
      detail: adminDoc({
        operationId: "consoleGetSession",
        summary: "Who is signed in to the console",
        description:
          "The session the cookie opens: its role (`admin` or `host`) and host. 401 `unauthenticated` without one, or once it has ended (idle 12 hours, 7 days after sign-in, signed out or revoked). Like every use of the session, an answer that moves its end on renews the cookie (`Set-Cookie`) for the idle time, or what is left of the 7 days when less.",
        access: "session",
        tag: "console",
      }),
    })
    .delete(
      "/console/session",
      async ({ request, set }) => {
        const session = await consoleSessionOf(ctx, access, { request, set });
        // Set after the lookup, so it replaces the renewal the lookup may have put on the answer.
        set.headers["set-cookie"] = clearedSessionCookie(ctx.config);
        if (!session) return done("Signed out.");
        assertSameOrigin(request, ctx.config);
        await access.revoke(session.id);
        return done("Signed out.");
      },
      {
        response: answers(Done, [403]),
        detail: adminDoc({
          operationId: "consoleSignOut",
          summary: "Sign out of the console",
          description: "Ends the cookie's session and clears the cookie; succeeds without a session too. From another origin: 403 `forbidden`.",
          access: "session",
          tag: "console",
        }),
      },
    );
};

/**
 * The console's signed-in browsers under `/admin/sessions`: listed, and revoked one by one (a revoked
 * browser is signed out at once). Behind the admin guard; the organizer only.
 */
export const consoleSessionAdminRoutes = (guard: AdminGuard, access: ConsoleAccess) =>
  new Elysia()
    .use(guard)
    // Signed-in browsers of the console; revoking one signs it out at once.
    .get("/sessions", async () => ok(await access.list()), {
      response: answers(envelope(Type.Array(SessionView)), [401, 403]),
      detail: adminDoc({
        operationId: "adminListSessions",
        summary: "List the console's signed-in browsers",
        description: "Every live console session, the organizer's and hosts', newest first; never their secrets.",
      }),
    })
    .delete(
      "/sessions/:sessionId",
      async ({ params }) => {
        await access.revoke(params.sessionId);
        return done("The session is revoked.");
      },
      {
        params: Type.Object({ sessionId: SessionId }),
        response: answers(Done, [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminRevokeSession",
          summary: "Revoke a console session",
          description: "That browser is signed out at once (its next request is 401). 404 when no live session has this id.",
        }),
      },
    );
