import { z } from "zod";
import { confirmationToken } from "./arguments";

// One contract per operation: its route, what a caller sends and gets back, who may call it, and
// how each door presents it. The doors derive from it, so they cannot drift apart:
// - the MCP tool (`toolOf`): its arguments are the REST inputs (path parameters, query and body,
//   by the same names), its result the REST answer (inside `{success, data}` under /api/private);
// - the OpenAPI operation's method, path, operationId and success answer (lib/openapi);
// - the authority row's REST, MCP and CLI doors (lib/authority/operations.ts);
// - the kit's typed REST call (operations/merchant-api.ts);
// - the CLI command (`cli`): its flags are the REST inputs (cli/contract-options.ts);
// - the fields the route parses: its body and query schemas are these inputs, field by field
//   (lib/validation/refine-contract-input.ts);
// - the twin tables of the tests (app/mcp/tool-input-schemas.test.ts, tool-output-schemas.test.ts,
//   which also hold these inputs and results to the served OpenAPI document).
// A door that differs on purpose says so here, with its reason (`tool.differs`, `cli.differs`).
//
// The inputs describe the API for clients (names, types, limits, descriptions); the servers parse
// every call with the API's own, stricter rule for each of these fields (lib/<domain>), so errors
// carry REST's codes.

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** Who may call an operation: its row of lib/authority/operations.ts and what that row requires. */
export type Authority = {
  row: string;
  /** `write` changes something; a read-only credential or token may only `read`. */
  access: "read" | "write";
  /** `owner`: only an owner, the organization's API key or an owner-approved agent. */
  role: "member" | "owner";
  /** Changes where money goes: an agent or OAuth token only proposes it. */
  routesMoney?: true;
};

export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
};

export const read: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const create: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const update: ToolAnnotations = { ...create, idempotentHint: true };
export const destructiveUpdate: ToolAnnotations = { ...update, destructiveHint: true };
/** Creates something that cannot be taken back (money sent on chain). */
export const destructiveCreate: ToolAnnotations = { ...create, destructiveHint: true };

/** The REST inputs: path parameters, query and JSON body, each a zod object of named fields. */
export type Inputs = { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodObject };

/** The MCP tool of an operation. Its arguments are the REST inputs unless it says otherwise. */
export type ToolDoor = {
  name: string;
  title: string;
  /** What it does, when to use it rather than a sibling, its side effects, what to call next. */
  description: string;
  annotations: ToolAnnotations;
  /** Needs the user's confirmation (elicitation or a confirmation token) before it acts. */
  confirmation?: true;
  /** Arguments REST takes elsewhere (a header) or not at all. */
  add?: z.ZodRawShape;
  /** REST inputs the tool accepts fewer values of. */
  narrow?: z.ZodRawShape;
  /** REST inputs the tool leaves out. */
  omit?: readonly string[];
  /** Why each added, narrowed or left-out argument differs (confirmationToken needs no reason). */
  differs?: Record<string, string>;
};

/** A CLI flag REST takes elsewhere (a header) or not at all. */
export type CliFlag = {
  /** Its value's placeholder, e.g. `key` for `--idempotency-key <key>`; none for a switch. */
  value?: string;
  description: string;
};

/**
 * The CLI command of an operation. Its flags are the REST inputs in kebab case (`atPeriodEnd` is
 * `--at-period-end`) with their descriptions and choices, required where REST requires them,
 * unless it says otherwise; a command whose action differs has it in packages/agent/src/commands.
 */
export type CliDoor = {
  command: string;
  description: string;
  /** A whole command line, shown in --help. */
  example: string;
  /** The body as one JSON object in --json (inline, @file or -), this the flag's help. */
  json?: string;
  /** Flags named otherwise than their input: input → flag (without dashes). */
  rename?: Record<string, string>;
  /** Inputs REST requires that the command fills in when their flag is absent. */
  optional?: readonly string[];
  /** REST inputs the command leaves out. */
  omit?: readonly string[];
  /** Flags REST takes elsewhere (a header) or not at all, by their camel-case names. */
  add?: Record<string, CliFlag>;
  /** Help of flags whose input has none, or whose command takes more than REST. */
  describe?: Record<string, string>;
  /** The command refuses to act without --confirm: the flag's help. An input `confirm` is this flag. */
  confirm?: string;
  /** Why each renamed, optional, left-out or added flag differs, and why --json (a flag described otherwise may say why). */
  differs?: Record<string, string>;
};

export type Contract = {
  /** The OpenAPI operationId; also the kit's name for the call. */
  operationId: string;
  method: Method;
  /** OpenAPI path template, e.g. /api/private/refunds/{id} */
  path: string;
  /**
   * The operation is a part of a route another contract owns (each with its own authority row):
   * its inputs are the body fields it owns, and its authority doors `<METHOD> <path>#<field>`,
   * e.g. the settlement wallets within the organization update.
   */
  part?: true;
  input: Inputs;
  /** The answer's data (REST wraps it in `{success, data}` under /api/private). */
  result: z.ZodObject;
  /** REST's success status when it is not 200. */
  status?: 201 | 202;
  authority: Authority;
  tool?: ToolDoor;
  cli?: CliDoor;
};

/** A contract, its literal types kept so the derived tool and REST call are typed. */
export const defineContract = <const C extends Contract>(contract: C) => contract;

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
  /** A read-only credential sees and calls only "read" tools. */
  access: "read" | "write";
  scope: "remote-and-local" | "local-only";
  /** Needs the user's confirmation (elicitation or a confirmation token) before it acts. */
  confirmation?: true;
  /** The operation the tool is a door of; a tool without one says why in `withoutTwin`. */
  contract?: Contract;
  /** Why no REST operation does what this tool does. */
  withoutTwin?: string;
  /** A remote tool without a contract: its row of lib/authority/operations.ts. */
  row?: string;
};

/** No fields. */
type None = Record<never, never>;
type ShapeOf<T> = T extends z.ZodObject<infer S> ? S : None;
type RestShape<I extends Inputs> = ShapeOf<I["params"]> & ShapeOf<I["query"]> & ShapeOf<I["body"]>;
type Omitted<T extends ToolDoor> = T["omit"] extends readonly (infer K extends string)[] ? K : never;
type Added<T extends ToolDoor> = T extends { add: infer A } ? A : None;
type Narrowed<T extends ToolDoor> = T extends { narrow: infer N } ? N : None;
type Confirmed<T extends ToolDoor> = T extends { confirmation: true }
  ? { confirmationToken: typeof confirmationToken }
  : None;
type Flat<T> = { [K in keyof T]: T[K] };
type AsShape<T> = T extends z.ZodRawShape ? T : never;

/** The arguments of a contract's tool: REST's inputs as the tool door changes them. */
export type ToolShape<C extends Contract & { tool: ToolDoor }> = Flat<
  Omit<RestShape<C["input"]>, Omitted<C["tool"]> | keyof Narrowed<C["tool"]>> &
    Narrowed<C["tool"]> &
    Added<C["tool"]> &
    Confirmed<C["tool"]>
>;

/** The REST inputs as one shape: path parameters, then query, then body. */
export function restShape(input: Inputs): z.ZodRawShape {
  return { ...input.params?.shape, ...input.query?.shape, ...input.body?.shape };
}

/** The MCP tool of a contract: REST's inputs as arguments, REST's answer as its result. */
export function toolOf<const C extends Contract & { tool: ToolDoor }>(contract: C) {
  const { tool } = contract;
  const omitted = new Set<string>(tool.omit ?? []);
  const shape = Object.fromEntries(
    Object.entries(restShape(contract.input)).filter(([name]) => !omitted.has(name)),
  );
  const inputSchema = z.strictObject({
    ...shape,
    ...tool.narrow,
    ...tool.add,
    ...(tool.confirmation ? { confirmationToken } : {}),
  }) as unknown as z.ZodObject<AsShape<ToolShape<C>>, z.core.$strict>;
  return {
    name: tool.name as C["tool"]["name"],
    title: tool.title,
    description: tool.description,
    inputSchema,
    outputSchema: contract.result as C["result"],
    annotations: tool.annotations,
    access: contract.authority.access,
    scope: "remote-and-local" as const,
    ...(tool.confirmation ? { confirmation: true as const } : {}),
    contract,
  };
}

/** A tool no REST operation twins: its own arguments and result, and why it has no twin. */
export const tool = <N extends string, I extends z.ZodObject, O extends z.ZodObject>(
  definition: Omit<ToolDefinition, "name" | "inputSchema" | "outputSchema" | "contract" | "withoutTwin"> & {
    name: N;
    inputSchema: I;
    outputSchema: O;
    withoutTwin: string;
  },
) => definition;
