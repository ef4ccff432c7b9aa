import { type Command, InvalidArgumentError, Option } from "commander";
import { z } from "zod";
import type { CliDoor, Contract } from "../contracts";
import { restInputs } from "../operations/merchant-api";
import { type Json, readJsonArgument } from "./arguments";

// A command's flags are its operation's REST inputs, as its contract states them
// (../contracts/contract.ts, `cli`): path parameters, query and body, each a flag in kebab case
// with its description, its choices, required where REST requires it, numbers parsed and held to
// their range. The command's differences (another name, a flag of its own, the body in --json)
// are the contract's too, each with its reason.

export type CliContract = Contract & { cli: CliDoor };

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** A flag of the command: the REST input it carries (none for a flag of the CLI's own) and its option. */
export type Flag = { input?: string; option: Option };

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Each REST input the command takes as a flag, with its JSON schema and whether REST requires it. */
function flagInputs({ input, cli }: CliContract) {
  const omitted = new Set(cli.omit ?? []);
  return [input.params, input.query, cli.json ? undefined : input.body].flatMap((part) => {
    if (!part) return [];
    const schema = z.toJSONSchema(part, { io: "input" }) as JsonSchema;
    return Object.entries(schema.properties ?? {})
      .filter(([name]) => !omitted.has(name))
      .map(([name, property]) => ({
        name,
        schema: property,
        required: (schema.required ?? []).includes(name) && !(cli.optional ?? []).includes(name),
      }));
  });
}

/** A number flag's value, held to its input's range so a wrong one is refused before any call. */
function numberOf(schema: JsonSchema) {
  const whole = schema.type === "integer";
  const min = schema.minimum ?? Number.NEGATIVE_INFINITY;
  const max = schema.maximum ?? Number.POSITIVE_INFINITY;
  const range = Number.isFinite(min) && Number.isFinite(max) ? ` from ${min} to ${max}` : "";
  return (value: string) => {
    const number = Number(value);
    if (!(whole ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`must be ${whole ? "a whole number" : "a number"}${range}`);
    }
    return number;
  };
}

function inputOption(contract: CliContract, name: string, schema: JsonSchema, required: boolean) {
  const { cli } = contract;
  if (name === "confirm" && cli.confirm) return new Option("--confirm", cli.confirm);
  const flag = `--${cli.rename?.[name] ?? kebab(name)}`;
  const help = cli.describe?.[name] ?? schema.description ?? "";
  if (schema.type === "boolean" && !required) return new Option(flag, help);
  if (schema.type !== "string" && schema.type !== "integer" && schema.type !== "number") {
    throw new Error(
      `${cli.command}: ${name} (${JSON.stringify(schema.type ?? schema)}) has no flag; take the body in --json (cli.json) or leave it out (cli.omit)`,
    );
  }
  const option = new Option(`${flag} <${kebab(name)}>`, help);
  if (schema.enum) option.choices(schema.enum.map(String));
  else if (schema.type !== "string") option.argParser(numberOf(schema));
  return required ? option.makeOptionMandatory() : option;
}

/** The command's flags: its inputs', then --json, its own flags and --confirm. */
export function contractFlags(contract: CliContract): Flag[] {
  const { cli } = contract;
  const inputs = flagInputs(contract).map(({ name, schema, required }) => ({
    input: name,
    option: inputOption(contract, name, schema, required),
  }));
  const confirmIsInput = inputs.some(({ input }) => input === "confirm");
  return [
    ...inputs,
    ...(cli.json ? [{ option: new Option("--json <json>", cli.json).makeOptionMandatory() }] : []),
    ...Object.entries(cli.add ?? {}).map(([name, flag]) => ({
      option: new Option(`--${kebab(name)}${flag.value ? ` <${flag.value}>` : ""}`, flag.description),
    })),
    ...(cli.confirm && !confirmIsInput ? [{ option: new Option("--confirm", cli.confirm) }] : []),
  ];
}

/** Adds the contract's flags to `command`. */
export function addContractOptions(command: Command, contract: CliContract): Command {
  for (const { option } of contractFlags(contract)) command.addOption(option);
  return command;
}

/**
 * The contract's input from the parsed flags, for `request(kit, contract, input)`: each flag's
 * value where its contract takes it, the --json body as given (for a part of a shared route,
 * only the fields it owns). A flag not given is left out, so REST's default applies.
 */
export async function contractInput(contract: CliContract, options: Json) {
  const named: Json = {};
  for (const { input, option } of contractFlags(contract)) {
    const value = options[option.attributeName()];
    if (input && value !== undefined) named[input] = value;
  }
  const input = restInputs(contract, named);
  if (!contract.cli.json) return input;
  const json = await readJsonArgument(options.json as string);
  const owned = contract.input.body?.shape ?? {};
  return {
    ...input,
    body: contract.part ? Object.fromEntries(Object.entries(json).filter(([name]) => name in owned)) : json,
  };
}
