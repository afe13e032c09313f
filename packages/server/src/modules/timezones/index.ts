import { Elysia } from "elysia";
import { ok } from "../../http/envelope.ts";
import { supportedTimezones } from "./service.ts";

/** `GET /timezones`, the one route that needs no token. */
export const timezoneRoutes = () => new Elysia().get("/timezones", () => ok(supportedTimezones()));
