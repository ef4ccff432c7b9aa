import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command, type Option } from "commander";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type Contract, contracts, defineContract, restShape } from "../contracts";
import { buildProgram } from "../program";
import { addContractOptions, type CliContract, contractFlags, contractInput } from "./contract-options";
import { addContractCommands } from "./define-command";

// Each CLI command with a contract takes that operation's REST inputs (path parameters, query and
// body) as flags: by the input's name in kebab case, required where REST requires it, with REST's
// choices. What a command renames, makes optional, leaves out, adds or takes as --json its
// contract names with the reason (../contracts, `cli`), as its MCP tool does (`tool.differs`).

type JsonSchema = {
  type?: string;
  enum?: string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const withCli = contracts.filter((contract): contract is CliContract => contract.cli !== undefined);
const commands = withCli.map((contract) => [contract.cli.command, contract] as const);

/** A flag as --help and the parser see it. */
const seen = (option: Option) => ({
  flag: option.long,
  required: option.mandatory,
  takesValue: option.required,
  choices: option.argChoices,
  described: option.description !== "",
});

/** The flags a command's REST inputs call for, as its contract's `cli` changes them. */
function expectedFlags({ input, cli }: CliContract) {
  const rest = z.toJSONSchema(z.object(restShape(input)), { io: "input" }) as JsonSchema;
  const body = new Set(Object.keys(input.body?.shape ?? {}));
  return Object.entries(rest.properties ?? {})
    .filter(([name]) => !(cli.omit ?? []).includes(name) && !(cli.json && body.has(name)))
    .map(([name, schema]) => ({
      flag: name === "confirm" && cli.confirm ? "--confirm" : `--${cli.rename?.[name] ?? kebab(name)}`,
      required: (rest.required ?? []).includes(name) && !(cli.optional ?? []).includes(name),
      takesValue: schema.type !== "boolean",
      choices: schema.enum,
      described: true,
    }));
}

function parsed(contract: CliContract, args: string[]) {
  const command = addContractOptions(
    new Command().exitOverride().configureOutput({ writeErr: () => {} }),
    contract,
  );
  command.parse(args, { from: "user" });
  return contractInput(contract, command.opts());
}

describe("CLI commands derived from contracts", () => {
  it.each(commands)("%s takes its operation's inputs as flags", (_command, contract) => {
    const flags = contractFlags(contract).filter((flag) => flag.input !== undefined);
    expect(flags.map(({ option }) => seen(option))).toEqual(expectedFlags(contract));
    const own = contractFlags(contract).filter((flag) => flag.input === undefined);
    expect(own.map(({ option }) => option.long)).toEqual([
      ...(contract.cli.json ? ["--json"] : []),
      ...Object.keys(contract.cli.add ?? {}).map((name) => `--${kebab(name)}`),
      ...(contract.cli.confirm && !("confirm" in restShape(contract.input)) ? ["--confirm"] : []),
    ]);
  });

  it.each(commands)("%s names its reason for each difference from REST", (_command, contract) => {
    const { cli } = contract;
    const rest = Object.keys(restShape(contract.input));
    const differing = [
      ...Object.keys(cli.rename ?? {}),
      ...(cli.optional ?? []),
      ...(cli.omit ?? []),
      ...Object.keys(cli.add ?? {}),
      ...(cli.json ? ["json"] : []),
    ];
    const reasons = Object.keys(cli.differs ?? {});
    expect(differing.filter((name) => !reasons.includes(name))).toEqual([]);
    // A flag described otherwise may say why; no reason names nothing.
    expect(reasons.filter((name) => !differing.includes(name) && !(name in (cli.describe ?? {})))).toEqual(
      [],
    );
    for (const name of [...Object.keys(cli.rename ?? {}), ...(cli.optional ?? []), ...(cli.omit ?? [])]) {
      expect({ name, inRest: rest.includes(name) }).toEqual({ name, inRest: true });
    }
    for (const name of Object.keys(cli.add ?? {})) {
      expect({ name, inRest: rest.includes(name) }).toEqual({ name, inRest: false });
    }
  });

  it.each(commands)("%s is the program's command, with the contract's flags", (name, contract) => {
    const command = buildProgram().commands.find((each) => each.name() === name);
    expect(command?.description()).toBe(contract.cli.description);
    expect(command?.options.map((option) => option.long)).toEqual([
      "--format",
      ...contractFlags(contract).map(({ option }) => option.long),
    ]);
  });

  it("turns the flags into the operation's input, a flag given to where REST takes it", async () => {
    const byName = Object.fromEntries(commands);
    expect(
      await parsed(byName["refunds:create"], [
        "--invoice",
        "inv_1",
        "--destination",
        "payer",
        "--idempotency-key",
        "order-77-refund-1",
        "--confirm",
      ]),
    ).toEqual({ params: undefined, query: undefined, body: { invoiceId: "inv_1", destination: "payer" } });
    expect(await parsed(byName["settlement:sweeps"], ["--invoice", "inv_1", "--rows", "100"])).toEqual({
      params: undefined,
      query: { invoiceId: "inv_1", rows: 100 },
      body: undefined,
    });
    expect(await parsed(byName["subscriptions:cancel"], ["--id", "sub_1", "--at-period-end"])).toEqual({
      params: { id: "sub_1" },
      query: undefined,
      body: { atPeriodEnd: true },
    });
    // REST's own confirm is the command's --confirm.
    expect(await parsed(byName["paylinks:disable"], ["--id", "7a1c", "--confirm"])).toMatchObject({
      body: { id: "7a1c", confirm: true },
    });
  });

  it("sends the --json body as given, a part of a shared route only its own fields", async () => {
    const json = JSON.stringify({ name: "Shop", settlementWallets: [{ network: "base", address: "0x1" }] });
    const byName = Object.fromEntries(commands);
    expect((await parsed(byName["organization:update"], ["--json", json])).body).toEqual(JSON.parse(json));
    expect((await parsed(byName["settlement:configure"], ["--json", json])).body).toEqual({
      settlementWallets: [{ network: "base", address: "0x1" }],
    });
  });

  it.each(["0", "101", "1.5", "ten", "1e2"])("refuses --rows %s before any call", (rows) => {
    const sweeps = commands.find(([name]) => name === "settlement:sweeps")?.[1] as CliContract;
    expect(() => parsed(sweeps, ["--rows", rows])).toThrow("must be a whole number from 1 to 100");
  });

  it("refuses a contract input no flag can carry unless the command takes it in --json or leaves it out", () => {
    const nested = {
      operationId: "nested",
      method: "post",
      path: "/api/private/nested",
      input: { body: z.object({ items: z.array(z.string()) }) },
      result: z.object({ id: z.string() }),
      authority: { row: "nested.write", access: "write", role: "member" },
      cli: { command: "nested:create", description: "Nested.", example: "crypto-checkout nested:create" },
    } satisfies Contract;
    expect(() => contractFlags(nested)).toThrow("nested:create: items");
    expect(contractFlags({ ...nested, cli: { ...nested.cli, omit: ["items"] } })).toEqual([]);
  });
});

describe("a plain operation's command", () => {
  const listWidgets = defineContract({
    operationId: "listWidgets",
    method: "get",
    path: "/api/private/widgets/{shop}",
    input: {
      params: z.object({ shop: z.string().describe("The shop") }),
      query: z.object({ colour: z.enum(["red", "blue"]).optional().describe("Only widgets of this colour") }),
    },
    result: z.object({ object: z.literal("list"), data: z.array(z.object({ id: z.string() })) }),
    authority: { row: "widgets.read", access: "read", role: "member" },
    cli: {
      command: "widgets:list",
      description: "List a shop's widgets.",
      example: "crypto-checkout widgets:list --shop s1",
    },
  });

  it("is derived whole from its contract: flags, help, the call and the answer's lines", async () => {
    const requested: string[] = [];
    const server = createServer((request, response) => {
      requested.push(request.url ?? "");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          success: true,
          data: { object: "list", data: [{ id: "w1", colour: "red" }], total: 1, page: 1 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const configHome = await mkdtemp(path.join(tmpdir(), "kit-plain-"));
    vi.stubEnv("SERVICE_API_BASE_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
    vi.stubEnv("SERVICE_API_KEY", "sk_live_unit_test_key_0123456789");
    vi.stubEnv("SERVICE_CONFIG_HOME", configHome);
    const write = vi.spyOn(process.stdout, "write").mockReturnValue(true);
    let printed = "";
    try {
      const program = new Command();
      addContractCommands(program, [...withCli, listWidgets]);
      const command = program.commands.find((each) => each.name() === "widgets:list") as Command;
      expect(command.helpInformation()).toContain("--colour <colour>  Only widgets of this colour");
      await program.parseAsync(["node", "cli", "widgets:list", "--shop", "s 1", "--colour", "red"]);
      printed = write.mock.calls.map(([text]) => String(text)).join("");
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
      server.close();
      await rm(configHome, { recursive: true, force: true });
    }
    expect(process.exitCode).toBe(0);
    process.exitCode = undefined;
    expect(requested).toEqual(["/api/private/widgets/s%201?colour=red"]);
    expect(printed.trim().split("\n")).toEqual(["w1  red", "1 of 1 (page 1)"]);
  });
});
