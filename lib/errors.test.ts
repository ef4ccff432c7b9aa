import { describe, expect, it } from "vitest";
import { invalidRequest, ServiceError, toServiceError } from "./errors";

// Client-facing messages are ours: the mapper never passes on a library's text, a stack or a path.
describe("toServiceError", () => {
  it.each([
    [
      "viem's contract-call dump",
      "Execution reverted.\n\nContract Call:\n  address: 0x1\n\nDocs: https://viem.sh/docs\nVersion: viem@2.0.0",
    ],
    ["a stack", "boom\n    at settle (/srv/app/lib/x402/settle.ts:10:5)"],
    ["a file path", "cannot read /srv/app/lib/x.js:12"],
    ["Prisma's text", "Invalid `prisma.invoice.update()` invocation"],
    ["node_modules", "failed in node_modules/@x402/evm"],
  ])("withholds %s and keeps status and code", (_name, message) => {
    const known = toServiceError(
      new ServiceError(402, "invalid_request_error", "payment_failed", message, "payment"),
      "req_1",
    );
    expect(known).toMatchObject({ status: 402, code: "payment_failed", param: "payment" });
    expect(known.message).toBe(
      "The request failed (payment_failed). Quote request id req_1 if you contact support.",
    );
  });

  it.each([
    "Invalid amount: must be greater than zero",
    "No such checkout session.",
    "Send the body as JSON with `Content-Type: application/json`.",
    "Refunds to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 would exceed the payment: 1.00 USDC is left.",
  ])("keeps our own message: %s", (message) => {
    const error = invalidRequest("parameter_invalid", message);
    expect(toServiceError(error, "req_1")).toBe(error);
  });

  it("says nothing internal of an unknown error", () => {
    const known = toServiceError(new TypeError("x is undefined at /srv/app/lib/y.ts:3"), "req_2");
    expect(known).toMatchObject({ status: 500, code: "internal_error" });
    expect(known.message).not.toMatch(/undefined|srv/);
  });
});
