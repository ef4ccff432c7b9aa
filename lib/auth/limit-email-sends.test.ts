// Limits are read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_EMAILS_PER_CLIENT_PER_HOUR = "4";
process.env.SERVICE_RATE_LIMIT_EMAILS_PER_ADDRESS_PER_HOUR = "2";
process.env.SERVICE_RATE_LIMIT_EMAILS_PER_ORGANIZATION_PER_HOUR = "3";

import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import { assertEmailSendAllowed } from "./limit-email-sends";

async function outcome(input: Parameters<typeof assertEmailSendAllowed>[0]) {
  try {
    await assertEmailSendAllowed(input);
    return "sent";
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.headers?.["Retry-After"]).toMatch(/^[1-9]\d*$/);
    return error.status;
  }
}

describe("assertEmailSendAllowed", () => {
  it("limits emails to one address, whoever asks and however it is typed", async () => {
    expect(await outcome({ clientAddress: "198.51.100.1", email: "to@one.example" })).toBe("sent");
    expect(await outcome({ clientAddress: "198.51.100.2", email: " TO@one.example" })).toBe("sent");
    expect(await outcome({ clientAddress: "198.51.100.3", email: "to@one.example" })).toBe(429);
    expect(await outcome({ clientAddress: "198.51.100.3", email: "other@one.example" })).toBe("sent");
  });

  it("limits emails asked for by one client, to any address", async () => {
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await outcome({ clientAddress: "203.0.113.9", email: `n${i}@two.example` }));
    expect(results).toEqual(["sent", "sent", "sent", "sent", 429]);
    expect(await outcome({ clientAddress: "203.0.113.10", email: "n9@two.example" })).toBe("sent");
  });

  it("limits emails sent for one organization, from any client", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(
        await outcome({
          clientAddress: `192.0.2.${i}`,
          email: `m${i}@three.example`,
          organizationId: "org_a",
        }),
      );
    }
    expect(results).toEqual(["sent", "sent", "sent", 429]);
    expect(
      await outcome({ clientAddress: "192.0.2.9", email: "m9@three.example", organizationId: "org_b" }),
    ).toBe("sent");
  });
});
