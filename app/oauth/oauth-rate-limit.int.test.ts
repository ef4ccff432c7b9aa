import { describe, expect, it, vi } from "vitest";
import { clientAddressHeader } from "@/lib/net/client-address";
import { callRoute } from "@/scripts/test-support/call-route";
import { POST as register } from "./register/route";
import { POST as token } from "./token/route";

// Limits are read from configuration once, possibly while the routes are imported: set first.
vi.hoisted(() => {
  process.env.SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE = "3";
});

// One subscriber's IPv6 network hands out as many addresses from its /64 as it likes, so the OAuth
// endpoints count a /64 as one client, like every other public limit.
describe("OAuth rate limits and IPv6", () => {
  const tokenFrom = (address: string) =>
    callRoute(token, "/oauth/token", {
      method: "POST",
      headers: { [clientAddressHeader]: address, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&refresh_token=cc_rt_x&client_id=ocl_x",
    });

  it("counts every address of one /64 against one budget at the token endpoint", async () => {
    const statuses = [];
    for (const host of [":1", ":2", ":abcd:1", "ffff:ffff:ffff:ffff"]) {
      statuses.push((await tokenFrom(`2001:db8:1:2:${host}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await tokenFrom("2001:db8:1:3::1")).status).toBe(401);
  });

  it("counts registrations per /64 too", async () => {
    const statuses = [];
    for (let i = 1; i <= 4; i++) {
      const response = await callRoute(register, "/oauth/register", {
        headers: { [clientAddressHeader]: `2001:db8:9:9::${i.toString(16)}` },
        body: {
          client_name: "Spam",
          redirect_uris: ["http://127.0.0.1:1/cb"],
          token_endpoint_auth_method: "none",
        },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});
