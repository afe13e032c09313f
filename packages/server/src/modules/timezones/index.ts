import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, envelope } from "../../http/answers.ts";
import { publicDoc } from "../../http/route-doc.ts";
import { ok } from "../../http/envelope.ts";
import { PreparedJson } from "../../lib/prepared-body.ts";
import { supportedTimezones } from "./service.ts";

/** `GET /timezones`, the one route that needs no token; the list never changes while the process runs. */
export const timezoneRoutes = () => {
  let body: PreparedJson<{ success: true; data: string[] }> | null = null;
  return new Elysia().get(
    "/timezones",
    ({ set, request }) => {
      body ??= new PreparedJson(ok(supportedTimezones()));
      return body.send(set, request.headers.get("accept-encoding"));
    },
    {
      response: answers(envelope(Type.Array(Type.String())), []),
      detail: publicDoc({
        operationId: "listTimezones",
        summary: "List supported IANA timezones",
        description: "Every IANA timezone identifier the API accepts. Needs no token.",
        auth: false,
      }),
    },
  );
};
