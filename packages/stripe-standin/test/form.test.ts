import { describe, expect, it } from "vitest";
import { asList, decodeForm, fingerprint, FormError } from "../src/form.ts";

describe("decodeForm", () => {
  it("nests bracketed keys as stripe-node sends them", () => {
    expect(decodeForm("amount=2000&metadata[reservation_uuid]=u-1&automatic_payment_methods[enabled]=true")).toEqual({
      amount: "2000",
      metadata: { reservation_uuid: "u-1" },
      automatic_payment_methods: { enabled: "true" },
    });
  });

  it("reads indexed, empty-bracket and percent-encoded lists alike", () => {
    for (const body of [
      "payment_method_types[0]=card&payment_method_types[1]=link",
      "payment_method_types[]=card&payment_method_types[]=link",
      "payment_method_types%5B0%5D=card&payment_method_types%5B1%5D=link",
    ]) {
      expect(asList(decodeForm(body).payment_method_types)).toEqual(["card", "link"]);
    }
  });

  it("decodes plus signs as spaces and percent escapes as characters", () => {
    expect(decodeForm("description=Intro+call&receipt_email=a%2Bb%40x.org")).toEqual({ description: "Intro call", receipt_email: "a+b@x.org" });
  });

  it("refuses a key sent both as a value and as a hash", () => {
    expect(() => decodeForm("metadata=x&metadata[a]=b")).toThrow(FormError);
  });

  it("does not read a hash with gaps in its indexes as a list", () => {
    expect(asList(decodeForm("a[0]=x&a[2]=y").a)).toBeUndefined();
  });

  it("fingerprints parameters independently of their order", () => {
    expect(fingerprint(decodeForm("a=1&b[c]=2&b[d]=3"))).toBe(fingerprint(decodeForm("b[d]=3&a=1&b[c]=2")));
    expect(fingerprint(decodeForm("a=1"))).not.toBe(fingerprint(decodeForm("a=2")));
  });
});
