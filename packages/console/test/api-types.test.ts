import { describe, expectTypeOf, it } from "vitest";
import type { AdminBookingPage, BusySourceView, EventTypePatch, EventTypeView, ScheduleView, SessionView } from "@booking/wire";
import type { AnswerOf, CallOf, Endpoint } from "../src/api.ts";

// The console's client is typed from the server's routes. These are checked by the type check
// (`npm run typecheck`, part of `npm test` at the root): an expected type that no longer holds, or
// an `@ts-expect-error` line that compiles, fails it. At run time they assert nothing more.

/** Whether each type is assignable to the other: the route's unwrapped schema and the wire's type agree. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe("the console's client, typed from the server's routes", () => {
  it("answers the wire's shapes that the routes declare, not unknown", () => {
    expectTypeOf<Same<AnswerOf<"GET /admin/event-types">, EventTypeView[]>>().toEqualTypeOf<true>();
    expectTypeOf<Same<AnswerOf<"PATCH /admin/schedules/:scheduleId">, ScheduleView>>().toEqualTypeOf<true>();
    expectTypeOf<Same<AnswerOf<"GET /admin/reservations">, AdminBookingPage>>().toEqualTypeOf<true>();
    expectTypeOf<Same<AnswerOf<"POST /console/session">, SessionView>>().toEqualTypeOf<true>();
    expectTypeOf<Same<AnswerOf<"DELETE /admin/busy-sources/:sourceId/write-bookings">, BusySourceView>>().toEqualTypeOf<true>();
  });

  it("answers the message of a route that answers only a sentence", () => {
    expectTypeOf<Same<AnswerOf<"DELETE /console/session">, string>>().toEqualTypeOf<true>();
    expectTypeOf<Same<AnswerOf<"POST /admin/event-types/:id/reservations/:uuid/cancel">, string>>().toEqualTypeOf<true>();
  });

  it("takes the body, path parameters and query the route declares", () => {
    expectTypeOf<Same<CallOf<"PATCH /admin/event-types/:id">["body"], EventTypePatch>>().toEqualTypeOf<true>();
    expectTypeOf<Same<CallOf<"PATCH /admin/event-types/:id">["params"], Record<"id", string | number>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<CallOf<"GET /admin/event-types">, { params?: undefined } & { body?: undefined } & { query?: undefined }>>().toEqualTypeOf<true>();
  });

  it("refuses a path the server does not serve, a method it does not take, and a body or query it does not know", () => {
    // @ts-expect-error no such route
    expectTypeOf<AnswerOf<"GET /admin/event-type">>();
    // @ts-expect-error the route takes POST
    expectTypeOf<AnswerOf<"GET /admin/event-types/:id/disable">>();
    // @ts-expect-error the public routes are not the console's
    expectTypeOf<Extract<Endpoint, "GET /time-slots">>().toEqualTypeOf<"GET /time-slots">();
    // @ts-expect-error a field the patch does not have
    expectTypeOf<{ titel: string }>().toMatchTypeOf<CallOf<"PATCH /admin/event-types/:id">["body"]>();
    // @ts-expect-error a filter the bookings list does not take
    expectTypeOf<{ state: "held" }>().toMatchTypeOf<NonNullable<CallOf<"GET /admin/reservations">["query"]>>();
    // @ts-expect-error a status the bookings list does not know
    expectTypeOf<{ status: "pending" }>().toMatchTypeOf<NonNullable<CallOf<"GET /admin/reservations">["query"]>>();
  });
});
