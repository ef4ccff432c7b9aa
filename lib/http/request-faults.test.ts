import { describe, expect, it } from "vitest";
import { collectRequestFaults, databaseUnavailableHere, reportRequestError } from "./request-faults";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
  code: "ECONNREFUSED",
  syscall: "connect",
  errno: -111,
});

describe("request faults", () => {
  it("remembers a lost database for the request it was reported in, and only there", async () => {
    const [failed, other] = await Promise.all([
      collectRequestFaults(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        reportRequestError(refused);
        await Promise.resolve();
        return databaseUnavailableHere();
      }),
      collectRequestFaults(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return databaseUnavailableHere();
      }),
    ]);
    expect(failed).toBe(true);
    expect(other).toBe(false);
  });

  it("ignores errors that are not a lost database, and reports outside a request", () => {
    expect(
      collectRequestFaults(() => {
        reportRequestError(new TypeError("x is undefined"));
        return databaseUnavailableHere();
      }),
    ).toBe(false);
    reportRequestError(refused);
    expect(databaseUnavailableHere()).toBe(false);
  });
});
