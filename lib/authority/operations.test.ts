// The table's rows take their REST, MCP and CLI doors from the operations' contracts
// (crypto-checkout-agent/contracts); each contract's own statement of what it needs must be its
// row's, so neither can change alone.
import { type ToolDefinition, tools } from "crypto-checkout-agent/catalog";
import { contracts } from "crypto-checkout-agent/contracts";
import { describe, expect, it } from "vitest";
import { type OperationId, operations } from "./operations";

const route = (contract: (typeof contracts)[number]) => `${contract.method.toUpperCase()} ${contract.path}`;

describe("the authority table's contract doors", () => {
  it.each(contracts.map((contract) => [contract.authority.row, route(contract), contract] as const))(
    "%s, the row of %s, requires what its contract says",
    (row, _route, contract) => {
      const requirement = operations[row as OperationId];
      expect(requirement).toBeDefined();
      expect({
        access: requirement.access,
        role: requirement.role,
        routesMoney: "routesMoney" in requirement ? requirement.routesMoney : undefined,
      }).toEqual({
        access: contract.authority.access,
        role: contract.authority.role,
        routesMoney: contract.authority.routesMoney,
      });
      const doors = contract.part
        ? Object.keys(contract.input.body?.shape ?? {}).map((field) => `${route(contract)}#${field}`)
        : [route(contract)];
      for (const door of doors) expect(requirement.rest).toContain(door);
      if (contract.tool) expect(requirement.mcp).toContain(contract.tool.name);
      if (contract.cli) expect(requirement.cli).toContain(contract.cli.command);
    },
  );

  it("puts every remote tool on one row, and a tool's access is its row's", () => {
    for (const tool of (tools as readonly ToolDefinition[]).filter(
      (each) => each.scope === "remote-and-local",
    )) {
      const rows = Object.entries(operations).filter(([, row]) => (row.mcp ?? []).includes(tool.name));
      expect({ tool: tool.name, rows: rows.length }).toEqual({ tool: tool.name, rows: 1 });
      expect({ tool: tool.name, access: tool.access }).toEqual({
        tool: tool.name,
        access: rows[0][1].access,
      });
    }
  });

  it("keeps the doors no contract has", () => {
    expect(operations["webhooks.manage"].rest).toEqual([
      "POST /api/private/organization/webhook-endpoints",
      "PATCH /api/private/organization/webhook-endpoints/{id}",
      "DELETE /api/private/organization/webhook-endpoints/{id}",
      "POST /api/private/organization/webhook-endpoints/{id}/rotate-secret",
      "PUT /api/private/organization/current#webhookUrl",
    ]);
    expect(operations["settlement.change"].rest).toEqual([
      "PUT /api/private/organization/current#settlementWallets",
    ]);
    expect(operations["apiKeys.read"].rest).toEqual(["GET /api/private/organization/api-key"]);
  });
});
