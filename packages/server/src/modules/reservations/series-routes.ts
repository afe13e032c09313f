import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { answers } from "../../http/answers.ts";
import { requireEventType } from "../../http/auth.ts";
import { done } from "../../http/envelope.ts";
import { publicDoc } from "../../http/route-doc.ts";
import { publicOrigin } from "../../lib/links.ts";
import { ReservationUuid } from "../../http/path-params.ts";
import { CancelInput, CancelQuery, CancelResponse } from "./model.ts";
import type { SeriesService } from "./series.ts";

/** `DELETE /reservations/{uuid}/series`: the visitor's (or organizer's) end of a series from one occurrence on. */
export const seriesRoutes = (ctx: AppContext, series: SeriesService) =>
  new Elysia().use(requireEventType(ctx.store)).delete(
    "/reservations/:reservationUuid/series",
    async ({ eventType, params, query, body, request }) =>
      done(
        await series.end(eventType, params.reservationUuid, request.headers.get("booking-override-token") ?? query.overrideToken, {
          origin: publicOrigin(ctx.config, request.url),
          reason: body.reason,
        }),
      ),
    {
      params: Type.Object({ reservationUuid: ReservationUuid }),
      query: CancelQuery,
      // The body is optional, as the single cancel's: an empty one reads as {}.
      transform(context) {
        context.body ??= {};
      },
      body: CancelInput,
      response: answers(CancelResponse, [401, 403, 404, 422]),
      detail: publicDoc({
        optionalBody: true,
        operationId: "endReservationSeries",
        summary: "End a series from this occurrence on",
        description:
          'Cancels this occurrence of a series and every later one still standing (earlier ones stay), under the rules of a single cancel for the first of them: until `cancelNoticeMinutes` before its start, unless the organizer\'s `overrideToken` (query or `Booking-Override-Token` header) is given. Each cancelled occurrence sends its `reservation.cancelled` webhook (with `seriesId`); when the server sends mail, the visitor gets one email whose recurring invite leaves the cancelled dates out (EXDATE), or cancels the whole entry when no occurrence is left. Ending a series that is already ended succeeds again. A reservation of no series answers 404 `not_found`. The optional body `{ "reason": "…" }` is as the single cancel\'s.',
      }),
    },
  );
