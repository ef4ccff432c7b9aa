import { describe, expect, it } from "vitest";
import { hashSecret } from "../crypto/tokens";
import { agentTokenHash, newAgentToken, newUserCode, userCodeHash } from "./agent-access-tokens";

describe("agent access tokens", () => {
  it("makes user codes of eight consonants that read back in any case, with or without the dash", () => {
    const code = newUserCode();
    expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    for (const typed of [code, code.toLowerCase(), code.replace("-", ""), ` ${code.replace("-", " ")} `]) {
      expect(userCodeHash(typed)).toBe(hashSecret(code));
    }
  });

  it.each([undefined, null, "", "ABCD-EFGH", "BCDF-GHJ", "BCDF-GHJKL", "BCDF_GHJK"])(
    "refuses the user code %s without hashing",
    (typed) => {
      expect(userCodeHash(typed)).toBeNull();
    },
  );

  it.each([
    ["setup", "cc_ast_"],
    ["checkin", "cc_act_"],
    ["registrationCheckin", "cc_rct_"],
    ["registrationConfirm", "cc_arc_"],
  ] as const)("makes %s tokens (%s) that only their own kind accepts", (kind, prefix) => {
    const { token, hash } = newAgentToken(kind);
    expect(token).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{40}$`));
    expect(agentTokenHash(kind, token)).toBe(hash);
    expect(agentTokenHash(kind === "setup" ? "checkin" : "setup", token)).toBeNull();
    expect(agentTokenHash(kind, `${token}x`)).toBeNull();
    expect(agentTokenHash(kind, null)).toBeNull();
  });
});
