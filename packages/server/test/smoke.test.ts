import { describe, expect, it } from "vitest";
import { setup } from "./utils.ts";

describe("smoke", () => {
  it("answers the health route with the success envelope", async () => {
    const { call } = await setup();
    const r = await call("GET", "/health");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: { status: "ok" } });
  });
});
