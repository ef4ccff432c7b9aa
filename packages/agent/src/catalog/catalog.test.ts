import { describe, expect, it } from "vitest";
import {
  checkConfirmationToken,
  confirmDestructiveCall,
  describeTool,
  issueConfirmationToken,
  knowledgeResources,
  prompts,
  readKnowledgeResource,
  toolError,
  tools,
  toolsFor,
} from "./index";

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const binding = { tool: "service_paylinks_disable", subject: "org_a:key_a", args: { id: "p1" } };
const now = new Date("2026-11-23T12:00:00Z");

describe("tool catalogue", () => {
  it("names exactly the contract's tools, local-only ones marked", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "service_auth_status",
        "service_agent_register",
        "service_checkout_sessions_create",
        "service_checkout_sessions_get",
        "service_paylinks_create",
        "service_paylinks_list",
        "service_paylinks_get",
        "service_paylinks_edit",
        "service_paylinks_disable",
        "service_payments_status",
        "service_transactions_list",
        "service_subscriptions_list",
        "service_subscriptions_get",
        "service_subscriptions_cancel",
        "service_refunds_create",
        "service_refunds_list",
        "service_refunds_get",
        "service_reports_payments",
        "service_reports_refunds",
        "service_sweeps_list",
        "service_organization_get",
        "service_organization_update",
        "service_settlement_configure",
        "service_webhooks_create",
        "service_webhooks_list",
        "service_webhooks_update",
        "service_webhooks_rotate_secret",
        "service_webhooks_send_test",
        "service_webhooks_list_deliveries",
        "service_webhooks_list_event_deliveries",
        "service_webhooks_redeliver",
        "service_agent_setup",
        "service_agent_checkin",
        "service_webhooks_verify_signature",
      ].sort(),
    );
    expect(tools.filter((tool) => tool.scope === "local-only").map((tool) => tool.name)).toEqual([
      "service_agent_setup",
      "service_agent_checkin",
      "service_webhooks_verify_signature",
    ]);
  });

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    "%s has true annotations and JSON schemas",
    (_, tool) => {
      if (tool.access === "write") expect(tool.annotations.readOnlyHint).toBe(false);
      if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint).toBe(false);
      if ("confirmation" in tool) {
        expect(tool.annotations.destructiveHint).toBe(true);
        expect(tool.inputSchema.shape).toHaveProperty("confirmationToken");
      }
      // As tools/list shows them: objects at the top, with every shared object inlined.
      const listed = describeTool(tool);
      expect(listed.inputSchema).toMatchObject({ type: "object" });
      expect(listed.outputSchema).toMatchObject({ type: "object" });
      expect(JSON.stringify(listed)).not.toContain("$ref");
      // Nullable as anyOf branches: a single-type dialect (Gemini's) rejects a `type` array.
      expect(JSON.stringify(listed)).not.toMatch(/"type":\[/);
      expect(tool.description.length).toBeGreaterThan(40);
    },
  );

  it("shows a read-only credential only read tools, and the remote server no local-only ones", () => {
    const readOnly = toolsFor("read", "remote");
    expect(readOnly.every((tool) => tool.access === "read" && tool.scope === "remote-and-local")).toBe(true);
    expect(readOnly.map((tool) => tool.name)).toContain("service_paylinks_get");
    expect(readOnly.map((tool) => tool.name)).not.toContain("service_paylinks_create");
    expect(toolsFor("write", "remote")).toHaveLength(31);
    expect(toolsFor("write", "local")).toHaveLength(34);
  });

  it("serves every knowledge resource with the base URL filled in, and prompts that name real tools", () => {
    for (const resource of knowledgeResources) {
      const text = readKnowledgeResource(resource, { baseUrl: "https://pay.example" });
      expect(text).toMatch(/^# /);
      expect(text).not.toContain("{base_url}");
    }
    const toolNames = new Set<string>(tools.map((tool) => tool.name));
    const resourceNames = new Set(knowledgeResources.map((resource) => resource.name));
    for (const prompt of prompts) {
      const text = prompt.text({ name: "Pack", amount: "5.00" });
      for (const named of text.match(/service_[a-z_]+/g) ?? []) expect(toolNames).toContain(named);
      for (const resource of prompt.resources) expect(resourceNames).toContain(resource);
    }
  });
});

describe("tool errors", () => {
  it.each([
    [
      { error: { code: "resource_missing", message: "No such paylink.", param: "id" }, requestId: "req_1" },
      "resource_missing: No such paylink. (parameter: id) Check the id; list the objects to find the right one. Request id: req_1.",
    ],
    [{ error: { code: "paylink_disabled", message: "Disabled." } }, "paylink_disabled: Disabled."],
  ])("builds the text from the REST envelope", (envelope, text) => {
    expect(toolError(envelope)).toEqual({ isError: true, content: [{ type: "text", text }] });
  });
});

describe("confirmation tokens", () => {
  const { token } = issueConfirmationToken(key, binding, now);
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const tamper = (value: string) => `${value.slice(0, 10)}${value[10] === "A" ? "B" : "A"}${value.slice(11)}`;

  it.each<[string, string, Uint8Array, typeof binding, Date, string]>([
    ["the same call within 5 minutes", token, key, binding, later(299), "valid"],
    [
      "argument keys in another order",
      token,
      key,
      { ...binding, args: { id: "p1", confirmationToken: token } },
      now,
      "valid",
    ],
    ["after 5 minutes", token, key, binding, later(300), "expired"],
    ["other arguments", token, key, { ...binding, args: { id: "p2" } }, now, "arguments_changed"],
    ["another tool", token, key, { ...binding, tool: "service_webhooks_rotate_secret" }, now, "invalid"],
    ["another caller", token, key, { ...binding, subject: "org_b:key_b" }, now, "invalid"],
    ["another server key", token, otherKey, binding, now, "invalid"],
    ["a tampered payload", tamper(token), key, binding, now, "invalid"],
    ["no prefix", token.slice(4), key, binding, now, "invalid"],
    ["garbage", "cct_x.y.z", key, binding, now, "invalid"],
  ])("checks a token against %s", (_, candidate, candidateKey, candidateBinding, at, expected) => {
    expect(checkConfirmationToken(candidateKey, candidate, candidateBinding, at)).toBe(expected);
  });

  it("refuses the first call with a preview and a token, and proceeds with it", () => {
    const first = confirmDestructiveCall(key, { ...binding, preview: "Disable paylink Pack?" }, now);
    expect(first.proceed).toBe(false);
    const text = first.proceed ? "" : first.result.content[0].text;
    expect(text).toMatch(/^confirmation_required: Disable paylink Pack\? /);
    const issued = text.match(/"confirmationToken": "(cct_[^"]+)"/)?.[1];
    expect(issued).toBeDefined();
    const second = confirmDestructiveCall(
      key,
      { ...binding, args: { ...binding.args, confirmationToken: issued }, preview: "" },
      later(10),
    );
    expect(second).toEqual({ proceed: true, token: issued });
    const stale = confirmDestructiveCall(
      key,
      {
        ...binding,
        args: { ...binding.args, confirmationToken: issued },
        state: { enabled: false },
        preview: "",
      },
      later(10),
    );
    expect(stale.proceed ? "" : stale.result.content[0].text).toMatch(/^confirmation_stale: /);
    const changed = confirmDestructiveCall(
      key,
      { ...binding, args: { id: "p2", confirmationToken: issued }, preview: "" },
      later(10),
    );
    expect(changed.proceed ? "" : changed.result.content[0].text).toMatch(/^confirmation_mismatch: /);
  });
});
