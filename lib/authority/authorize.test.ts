import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import { type Actor, assertSignedInRecently, authorize } from "./authorize";

/** The decision, or the refusal's code. */
function answer(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe("what buyers' receipts say of the merchant (receipts.configure)", () => {
  it.each<[string, Actor, string]>([
    ["an owner in the dashboard", { kind: "owner" }, "allow"],
    ["the API key", { kind: "api_key" }, "allow"],
    ["a member", { kind: "member" }, "owner_only"],
    ["a write agent credential", { kind: "agent", access: "write" }, "deciders_only"],
    ["a read agent credential", { kind: "agent", access: "read" }, "insufficient_access"],
    ["an owner's write OAuth token", { kind: "oauth", access: "write", role: "owner" }, "deciders_only"],
    ["a member's write OAuth token", { kind: "oauth", access: "write", role: "member" }, "owner_only"],
  ])("%s: %s", (_who, actor, expected) => {
    expect(answer(() => authorize(actor, "receipts.configure"))).toBe(expected);
  });

  const now = new Date("2026-11-29T12:00:00Z");
  it.each<[string, Date | null, string]>([
    ["signed in a minute ago", new Date("2026-11-29T11:59:00Z"), "allowed"],
    ["signed in 11 minutes ago", new Date("2026-11-29T11:49:00Z"), "reauthentication_required"],
    ["a session of unknown age", null, "reauthentication_required"],
  ])("a dashboard session %s: %s", (_when, signedInAt, expected) => {
    expect(
      answer(() => {
        assertSignedInRecently("receipts.configure", signedInAt, now);
        return "allowed";
      }),
    ).toBe(expected);
  });
});
