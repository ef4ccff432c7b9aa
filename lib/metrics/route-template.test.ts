import { describe, expect, it } from "vitest";
import { routeTemplate } from "./route-template";

describe("routeTemplate", () => {
  it.each([
    ["/api/health", {}, "/api/health"],
    ["/api/checkout-sessions/ycs_abc", { id: "ycs_abc" }, "/api/checkout-sessions/[id]"],
    [
      "/api/private/webhook-endpoints/we_1/deliveries/whd_2",
      { id: "we_1", deliveryId: "whd_2" },
      "/api/private/webhook-endpoints/[id]/deliveries/[deliveryId]",
    ],
    ["/api/auth/callback/email", { nextauth: ["callback", "email"] }, "/api/auth/[...nextauth]"],
    ["/pay/a%20b/start", { id: "a b" }, "/pay/[id]/start"],
    ["/api/x/%E0%A4%A", { id: "%E0%A4%A" }, "/api/x/[id]"],
    ["/api/x/y", undefined, "/api/x/y"],
  ])("%s with %o is %s", (pathname, params, template) => {
    expect(routeTemplate(pathname, params)).toBe(template);
  });
});
