import { describe, expect, it } from "vitest";
import { paymentLinkHeader } from "./payment-link";

const paylink = "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11";
const session = "ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy";

describe("paymentLinkHeader", () => {
  it.each([
    ["GET", `/pay/${paylink}`, `<http://localhost:3000/api/x402/paylinks/${paylink}>; rel="payment"`],
    [
      "HEAD",
      `/pay/${session}`,
      `<http://localhost:3000/api/x402/checkout-sessions/${session}>; rel="payment"`,
    ],
    [
      "GET",
      `/pay/${session}`,
      `<http://localhost:3000/api/x402/checkout-sessions/${session}>; rel="payment"`,
    ],
    ["POST", `/pay/${session}`, null],
    ["GET", `/pay/${session}/start`, null],
    ["GET", "/pay/ycs_short", null],
    ["GET", "/pay/inv_4fQh0r7Xq1s9bT2mN8kLp3Zy", null],
    ["GET", `/api/public/checkout-sessions/${session}`, null],
    ["GET", "/pay/", null],
  ])("%s %s → %s", (method, pathname, header) => {
    expect(paymentLinkHeader(method, pathname)).toBe(header);
  });
});
