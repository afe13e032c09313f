import { Elysia } from "elysia";
import { ok, PreparedJson } from "../../http/envelope.ts";
import { supportedTimezones } from "./service.ts";

/** `GET /timezones`, the one route that needs no token; the list never changes while the process runs. */
export const timezoneRoutes = () => {
  let body: PreparedJson | null = null;
  return new Elysia().get("/timezones", ({ set, request }) => {
    body ??= new PreparedJson(JSON.stringify(ok(supportedTimezones())));
    return body.send(set, request.headers.get("accept-encoding"));
  });
};
